// runtime/exec/bwrap-probe.ts: whether a bwrap binary can build the sandbox here, its optional features, and the reason when not.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { probeBwrap } from "../../runtime/exec/bwrap-probe.js";
import { findExecutable } from "../../runtime/exec/runner.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-bwrap-probe-", { realpath: true });
afterAll(() => temp.cleanup());

/** A stand-in bwrap: prints `help` for --help, records the probe's argv next to itself, answers with `probe`. */
function fakeBwrap(name: string, help: string, probe: string): string {
  const path = temp.path(name);
  writeFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = "--help" ]; then printf '%s\\n' '${help}'; exit 0; fi\nprintf '%s\\n' "$*" > "$0.args"\n${probe}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const FULL_HELP = "usage: bwrap [OPTIONS...] [--] COMMAND --disable-userns --size BYTES";

describe("probeBwrap", () => {
  it("reports the real bwrap as working, with its features", async () => {
    expect(await probeBwrap(findExecutable("bwrap") as string)).toEqual({
      ok: true,
      features: { disableUserns: true, tmpfsSize: true },
    });
  });

  it("reports a missing binary", async () => {
    expect(await probeBwrap("/nonexistent/bwrap")).toEqual({
      ok: false,
      reason: "bubblewrap not found at /nonexistent/bwrap",
    });
  });

  it("reports a bwrap that cannot build the namespaces with its exit code and its own words", async () => {
    const bwrap = fakeBwrap(
      "bwrap-denied",
      FULL_HELP,
      "echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1",
    );
    expect(await probeBwrap(bwrap)).toEqual({
      ok: false,
      reason: `${bwrap} failed its probe (exit 1): bwrap: setting up uid map: Permission denied`,
    });
    expect(readFileSync(`${bwrap}.args`, "utf8")).toBe(
      "--unshare-user --unshare-pid --unshare-net --unshare-ipc --unshare-uts --die-with-parent --new-session --cap-drop ALL --disable-userns --ro-bind / / --proc /proc --dev /dev --tmpfs /tmp -- true\n",
    );
  });

  it("says 'no message' when a failing bwrap prints nothing, and names the signal that killed it", async () => {
    const silent = fakeBwrap("bwrap-silent", FULL_HELP, "exit 3");
    expect(await probeBwrap(silent)).toEqual({
      ok: false,
      reason: `${silent} failed its probe (exit 3): no message`,
    });
    const killed = fakeBwrap("bwrap-killed", FULL_HELP, "kill -9 $$");
    expect(await probeBwrap(killed)).toEqual({
      ok: false,
      reason: `${killed} failed its probe (exit SIGKILL): no message`,
    });
  });

  it("reads an older bwrap's features from its help and leaves out the option it lacks", async () => {
    const bwrap = fakeBwrap("bwrap-old", "usage: bwrap [OPTIONS...] [--] COMMAND --tmpfs DEST", "exit 0");
    const disk = temp.path("cache", "probe-old");
    expect(await probeBwrap(bwrap, disk)).toEqual({
      ok: true,
      features: { disableUserns: false, tmpfsSize: false },
    });
    expect(readFileSync(`${bwrap}.args`, "utf8")).not.toContain("--disable-userns");
    // Only a pass with every feature is written for the next process.
    expect(existsSync(disk)).toBe(false);
  });

  it("reports a file it cannot execute", async () => {
    const path = temp.path("bwrap-not-executable");
    writeFileSync(path, "not a program\n");
    chmodSync(path, 0o644);
    const probe = await probeBwrap(path);
    expect(probe).toEqual({ ok: false, reason: `${path} could not start: spawn ${path} EACCES` });
  });

  it("probes a binary once per process: concurrent and later callers share the answer", async () => {
    const bwrap = fakeBwrap("bwrap-once", FULL_HELP, 'echo probed >> "$0.count"; exit 0');
    const [a, b] = await Promise.all([probeBwrap(bwrap), probeBwrap(bwrap)]);
    const c = await probeBwrap(bwrap);
    expect([a, b, c]).toEqual(
      Array(3).fill({ ok: true, features: { disableUserns: true, tmpfsSize: true } }),
    );
    expect(readFileSync(`${bwrap}.count`, "utf8")).toBe("probed\n");
  });

  it("forgets a failed probe once answered: a bwrap that works later is probed again and passes", async () => {
    const works = temp.path("bwrap-later.works");
    const bwrap = fakeBwrap(
      "bwrap-later",
      FULL_HELP,
      `echo probed >> "$0.count"; [ -e "${works}" ] && exit 0; echo 'setting up uid map: Permission denied' >&2; exit 1`,
    );
    const first = await probeBwrap(bwrap);
    expect(first.ok).toBe(false);
    writeFileSync(works, "");
    expect(await probeBwrap(bwrap)).toEqual({ ok: true, features: { disableUserns: true, tmpfsSize: true } });
    // A pass is kept: the third caller does not probe.
    await probeBwrap(bwrap);
    expect(readFileSync(`${bwrap}.count`, "utf8")).toBe("probed\nprobed\n");
  });
});
