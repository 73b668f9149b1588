// The bwrap probe's disk cache: a full pass is reused by the next process; anything else is probed again.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeBwrap } from "../../runtime/exec/bwrap-probe.js";
import { cachedProbePassed, rememberProbePassed } from "../../runtime/exec/probe-cache.js";
import { findExecutable } from "../../runtime/exec/runner.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-probe-", { realpath: true });
const dir = temp.dir;
afterAll(() => temp.cleanup());
const realBwrap = findExecutable("bwrap");

function copyOf(source: string, name: string): string {
  const target = join(dir, name);
  copyFileSync(source, target);
  chmodSync(target, 0o755);
  return target;
}

describe("bwrap probe disk cache", () => {
  it("keeps a pass keyed by the binary: a new mtime, another path or edited content is no pass", async () => {
    if (!realBwrap) throw new Error("bwrap is not on PATH; this host needs bubblewrap");
    const bwrap = copyOf(realBwrap, "bwrap-a");
    const file = join(dir, "cache", "probe-a");
    expect(await cachedProbePassed(bwrap, file)).toBe(false);
    await rememberProbePassed(bwrap, file);
    expect(await cachedProbePassed(bwrap, file)).toBe(true);
    expect(await cachedProbePassed(copyOf(realBwrap, "bwrap-b"), file)).toBe(false);
    utimesSync(bwrap, new Date(), new Date(Date.now() + 5_000));
    expect(await cachedProbePassed(bwrap, file)).toBe(false);
    await rememberProbePassed(bwrap, file);
    expect(await cachedProbePassed(bwrap, file)).toBe(true);
    chmodSync(file, 0o666);
    expect(await cachedProbePassed(bwrap, file)).toBe(false);
    chmodSync(file, 0o600);
    writeFileSync(file, "forged\n");
    expect(await cachedProbePassed(bwrap, file)).toBe(false);
  });

  it("a FIFO at the cache path is no pass, answered at once (the synchronous read never waits on it)", async () => {
    if (!realBwrap) throw new Error("bwrap is not on PATH; this host needs bubblewrap");
    const fifo = join(dir, "probe-fifo");
    execFileSync("mkfifo", ["-m", "600", fifo]);
    expect(await cachedProbePassed(copyOf(realBwrap, "bwrap-fifo"), fifo)).toBe(false);
  });

  it("a cached pass is used without spawning; a failed probe is never written", async () => {
    // /bin/false fails any real probe, so an ok answer can only come from the cache.
    const fake = copyOf("/bin/false", "bwrap-false");
    const file = join(dir, "cache", "probe-false");
    const failed = await probeBwrap(fake, file);
    expect(failed.ok).toBe(false);
    expect(existsSync(file)).toBe(false);
    const other = copyOf("/bin/false", "bwrap-false-2");
    await rememberProbePassed(other, join(dir, "cache", "probe-false-2"));
    expect(await probeBwrap(other, join(dir, "cache", "probe-false-2"))).toEqual({
      ok: true,
      features: { disableUserns: true, tmpfsSize: true },
    });
  });

  it("a real bwrap that passes with every feature is written for the next process", async () => {
    if (!realBwrap) throw new Error("bwrap is not on PATH; this host needs bubblewrap");
    const bwrap = copyOf(realBwrap, "bwrap-c");
    const file = join(dir, "cache", "probe-c");
    const probe = await probeBwrap(bwrap, file);
    expect(probe).toEqual({ ok: true, features: { disableUserns: true, tmpfsSize: true } });
    expect(await cachedProbePassed(bwrap, file)).toBe(true);
  });
});
