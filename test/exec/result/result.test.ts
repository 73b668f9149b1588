// runtime/exec/result/result.ts: what supervision saw becomes the one outcome (first matching cause wins) and the RunResult record.
import { describe, expect, it } from "vitest";
import { outcomes } from "../../../runtime/exec/outcome.js";
import type { ExecPlan } from "../../../runtime/exec/plan/plan.js";
import { type Ended, outcomeOf, resultOf, stoppedResult } from "../../../runtime/exec/result/result.js";
import type { Supervised } from "../../../runtime/exec/supervise/supervise.js";
import type { RunLimits, RunRequest } from "../../../runtime/exec/types.js";

const MIB = 1024 * 1024;
const LIMITS: RunLimits = {
  timeoutMs: 3_000,
  memoryBytes: 128 * MIB,
  outputBytes: 65_536,
  maxProcesses: 64,
  maxFileSizeBytes: 8 * MIB,
  maxOpenFiles: 64,
};
const REQ = { limits: LIMITS } as RunRequest;
const PLAN = { script: "a.py", req: REQ, runId: "sg-1", command: ["python3", "/s/a.py", "x"] } as ExecPlan;

function ended(run: Partial<Supervised>, extra: Partial<Ended> = {}): Ended {
  return {
    run: {
      exit: { code: 0, signal: null },
      limit: null,
      output: "",
      stdout: "",
      stderr: "",
      truncated: false,
      oomKilled: false,
      peakMemoryBytes: null,
      durationMs: 5,
      warnings: [],
      ...run,
    },
    argv: ["bwrap", "--", "python3", "/s/a.py"],
    cwd: "/ws",
    signalAsCode: true,
    planted: [],
    ...extra,
  };
}

const enoent = Object.assign(new Error("spawn /usr/bin/python9 ENOENT"), {
  code: "ENOENT",
  path: "/usr/bin/python9",
}) as NodeJS.ErrnoException;

const CASES: Array<[string, Ended, ReturnType<typeof outcomeOf>]> = [
  ["exit 0 is ok", ended({}), { outcome: outcomes.ok(), exitCode: 0, signal: null }],
  [
    "a non-zero exit",
    ended({ exit: { code: 2, signal: null } }),
    { outcome: outcomes.exited("a.py", 2), exitCode: 2, signal: null },
  ],
  [
    "128+N from bwrap is the signal N",
    ended({ exit: { code: 139, signal: null } }),
    { outcome: outcomes.killedBy("a.py", "SIGSEGV"), exitCode: null, signal: "SIGSEGV" },
  ],
  [
    "128+N from a direct child is only an exit code",
    ended({ exit: { code: 139, signal: null } }, { signalAsCode: false }),
    { outcome: outcomes.exited("a.py", 139), exitCode: 139, signal: null },
  ],
  [
    "a code past 128+64 is no signal",
    ended({ exit: { code: 200, signal: null } }),
    { outcome: outcomes.exited("a.py", 200), exitCode: 200, signal: null },
  ],
  [
    "a signal the host saw",
    ended({ exit: { code: null, signal: "SIGTERM" } }),
    { outcome: outcomes.killedBy("a.py", "SIGTERM"), exitCode: null, signal: "SIGTERM" },
  ],
  [
    "the time limit",
    ended({ exit: { code: null, signal: "SIGKILL" }, limit: "timeout" }),
    { outcome: outcomes.timeout("a.py", 3_000), exitCode: null, signal: "SIGKILL" },
  ],
  [
    "the memory limit",
    ended({ exit: { code: 137, signal: null }, limit: "memory_limit" }),
    { outcome: outcomes.memory("a.py", 128 * MIB), exitCode: null, signal: "SIGKILL" },
  ],
  [
    "the output cap",
    ended({ exit: { code: null, signal: "SIGKILL" }, limit: "output_limit" }),
    { outcome: outcomes.output("a.py", 65_536), exitCode: null, signal: "SIGKILL" },
  ],
  [
    "the workspace budget",
    ended({ limit: "workspace_limit", workspaceExcess: { kind: "files", count: 11, limit: 10 } }),
    {
      outcome: outcomes.workspace("a.py", { kind: "files", count: 11, limit: 10 }),
      exitCode: null,
      signal: "SIGKILL",
    },
  ],
  [
    "the kernel's OOM killer (all memory counted)",
    ended({ exit: { code: 137, signal: null }, oomKilled: true }),
    { outcome: outcomes.memory("a.py", 128 * MIB), exitCode: null, signal: "SIGKILL" },
  ],
  [
    "an interpreter's own out-of-memory error",
    ended({ exit: { code: 1, signal: null }, output: "Traceback ...\nMemoryError\n" }),
    { outcome: outcomes.memory("a.py", 128 * MIB), exitCode: 1, signal: null },
  ],
  [
    "a program that could not start",
    ended({ exit: { code: null, signal: null, error: enoent } }),
    {
      outcome: outcomes.spawnFailed("a.py", "/usr/bin/python9", "ENOENT", "/ws"),
      exitCode: null,
      signal: null,
    },
  ],
  [
    "planted git metadata wins over the exit",
    ended({ exit: { code: 0, signal: null } }, { planted: ["/ws/.git"] }),
    { outcome: outcomes.violation("a.py", ["/ws/.git"]), exitCode: 0, signal: null },
  ],
  [
    "a sandbox that could not be set up wins over everything",
    ended(
      { exit: { code: null, signal: "SIGKILL" }, setupError: "hand-shake failed" },
      { planted: ["/ws/.git"] },
    ),
    {
      outcome: outcomes.unavailable(
        "the sandbox for script 'a.py' could not be set up, so the script did not run: hand-shake failed",
        "see the cause, or remove the grant that needs it",
      ),
      exitCode: null,
      signal: "SIGKILL",
    },
  ],
];

describe("outcomeOf", () => {
  it.each(CASES)("%s", (_name, facts, expected) => {
    expect(outcomeOf(PLAN, facts)).toEqual(expected);
  });

  it("names the spawned program when the error carries no path", () => {
    const bare = Object.assign(new Error("spawn EACCES"), { code: "EACCES" }) as NodeJS.ErrnoException;
    expect(outcomeOf(PLAN, ended({ exit: { code: null, signal: null, error: bare } })).outcome).toEqual(
      outcomes.spawnFailed("a.py", "bwrap", "EACCES", "/ws"),
    );
  });
});

describe("resultOf and stoppedResult", () => {
  it("builds an ok record: no code nor message, the command as argv, the run id", () => {
    expect(
      resultOf(PLAN, outcomes.ok(), {
        exitCode: 0,
        signal: null,
        durationMs: 12,
        peakMemoryBytes: 1000,
        output: "hi\n",
        stdout: "hi\n",
        stderr: "",
        truncated: false,
        sandboxed: true,
        warnings: ["w"],
      }),
    ).toEqual({
      outcome: { status: "ok" },
      status: "ok",
      argv: ["python3", "/s/a.py", "x"],
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 12,
      peakMemoryBytes: 1000,
      output: "hi\n",
      stdout: "hi\n",
      stderr: "",
      truncated: false,
      sandboxed: true,
      warnings: ["w"],
      runId: "sg-1",
    });
  });

  it("gives a failure its code and one-line message, and timedOut only for a timeout", () => {
    const timeout = resultOf(PLAN, outcomes.timeout("a.py", 3_000), { sandboxed: true, warnings: [] });
    expect([timeout.code, timeout.message, timeout.timedOut]).toEqual([
      "SCRIPT_FAILED",
      "SCRIPT_FAILED: script 'a.py' exceeded the 3 s time limit and was killed with its process tree; fix: make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)",
      true,
    ]);
    expect(resultOf(PLAN, outcomes.exited("a.py", 1), { sandboxed: true, warnings: [] }).timedOut).toBe(
      false,
    );
  });

  it("records a run stopped before it started, with its findings and nothing run", () => {
    const findings = [{ severity: "critical", message: "m", file: "/s/a.py", line: 2 }];
    const result = stoppedResult(PLAN, {
      outcome: outcomes.refused("script 'a.py' has 1 critical scan finding(s)", "remove them"),
      sandboxed: true,
      warnings: [],
      findings,
    });
    expect(result).toMatchObject({
      status: "refused",
      code: "SCAN_REFUSED",
      message: "SCAN_REFUSED: script 'a.py' has 1 critical scan finding(s); fix: remove them",
      exitCode: null,
      output: "",
      durationMs: 0,
      peakMemoryBytes: null,
      findings,
      sandboxed: true,
    });
  });
});
