// runtime/exec/plan/sandbox.ts: which OS sandbox a run gets (real bwrap probed), and the refusal or warnings when a level cannot be honoured.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  chooseSandbox,
  resetUnsandboxedWarning,
  type SandboxChoice,
  sandboxVerdict,
} from "../../../runtime/exec/plan/sandbox.js";
import { findExecutable } from "../../../runtime/exec/runner.js";
import type { RunRequest } from "../../../runtime/exec/types.js";
import { tempRoot } from "../../support/workspace.js";

const temp = tempRoot("skillgate-plan-sandbox-", { realpath: true });
afterAll(() => temp.cleanup());
const ENV = { PATH: process.env.PATH ?? "", SKILLGATE_HOME: temp.path("home") };
const BWRAP = findExecutable("bwrap") as string;

const req = (overrides: Partial<RunRequest> = {}): RunRequest =>
  ({ sandboxLevel: 2, allowUnsandboxed: false, ...overrides }) as RunRequest;

describe("chooseSandbox", () => {
  it("level 1 has no OS sandbox and probes nothing", async () => {
    expect(await chooseSandbox(req({ sandboxLevel: 1 }), "linux", ENV)).toEqual({ kind: "none" });
  });

  it("linux: the bwrap on PATH, probed with its features, the pass cached under skillgate's home", async () => {
    expect(await chooseSandbox(req(), "linux", ENV)).toEqual({
      kind: "bwrap",
      bwrap: BWRAP,
      features: { disableUserns: true, tmpfsSize: true },
    });
    expect(existsSync(join(ENV.SKILLGATE_HOME, "cache", "bwrap-probe"))).toBe(true);
  });

  it("the request's bwrapPath wins over SKILLGATE_BWRAP, which wins over PATH", async () => {
    const env = { ...ENV, SKILLGATE_BWRAP: "/nonexistent/env-bwrap" };
    expect(await chooseSandbox(req({ bwrapPath: "/nonexistent/req-bwrap" }), "linux", env)).toEqual({
      kind: "none",
      reason: "bubblewrap not found at /nonexistent/req-bwrap",
    });
    expect(await chooseSandbox(req(), "linux", env)).toEqual({
      kind: "none",
      reason: "bubblewrap not found at /nonexistent/env-bwrap",
    });
  });

  it("says so when bwrap is not on PATH", async () => {
    expect(await chooseSandbox(req(), "linux", { ...ENV, PATH: temp.path("empty") })).toEqual({
      kind: "none",
      reason: "bubblewrap not found at bwrap (not on PATH)",
    });
  });

  it("darwin uses sandbox-exec when present; other platforms have none", async () => {
    expect(await chooseSandbox(req(), "darwin", ENV)).toEqual(
      existsSync("/usr/bin/sandbox-exec")
        ? { kind: "sandbox-exec" }
        : { kind: "none", reason: "/usr/bin/sandbox-exec is missing" },
    );
    expect(await chooseSandbox(req(), "win32", ENV)).toEqual({
      kind: "none",
      reason: "no OS sandbox is implemented for platform win32",
    });
  });
});

describe("sandboxVerdict", () => {
  const none: SandboxChoice = { kind: "none", reason: "bubblewrap not found at /x/bwrap" };

  it.each([2, 3] as const)(
    "refuses level %i without its sandbox, naming the cause and both fixes",
    (level) => {
      expect(sandboxVerdict(req({ sandboxLevel: level }), "a.py", none)).toEqual({
        refusal: {
          status: "sandbox_unavailable",
          code: "SANDBOX_UNAVAILABLE",
          message: `cannot run script 'a.py' at sandbox level ${level}: bubblewrap not found at /x/bwrap`,
          fix: "apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox",
        },
      });
    },
  );

  it("runs unsandboxed on opt-in, warning once per process", () => {
    resetUnsandboxedWarning();
    const optIn = req({ allowUnsandboxed: true });
    expect(sandboxVerdict(optIn, "a.py", none)).toEqual({
      warnings: [
        "SANDBOX_UNAVAILABLE: scripts run WITHOUT the OS sandbox (bubblewrap not found at /x/bwrap) because exec.allow_unsandboxed is true; only resource limits apply",
      ],
    });
    expect(sandboxVerdict(optIn, "b.py", none)).toEqual({ warnings: [] });
    resetUnsandboxedWarning();
    expect(sandboxVerdict(optIn, "c.py", none)).toMatchObject({
      warnings: [expect.stringMatching(/^SANDBOX_UNAVAILABLE: /)],
    });
  });

  it("has nothing to say at level 1, nor for a full-featured bwrap", () => {
    expect(sandboxVerdict(req({ sandboxLevel: 1 }), "a.py", { kind: "none" })).toEqual({ warnings: [] });
    expect(
      sandboxVerdict(req(), "a.py", {
        kind: "bwrap",
        bwrap: BWRAP,
        features: { disableUserns: true, tmpfsSize: true },
      }),
    ).toEqual({ warnings: [] });
  });

  it("warns about a bwrap without --disable-userns", () => {
    expect(
      sandboxVerdict(req(), "a.py", {
        kind: "bwrap",
        bwrap: BWRAP,
        features: { disableUserns: false, tmpfsSize: true },
      }),
    ).toEqual({
      warnings: [
        "this bubblewrap has no --disable-userns (needs >= 0.8): scripts may create nested user namespaces; fix: upgrade bubblewrap",
      ],
    });
  });
});
