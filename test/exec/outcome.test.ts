// runtime/exec/outcome.ts: every run outcome's status, code, message and fix, and its one-line and heading renderings.
import { describe, expect, it } from "vitest";
import {
  type FailedOutcome,
  failureHeading,
  outcomeLine,
  outcomes,
  type RunOutcome,
  splitFix,
} from "../../runtime/exec/outcome.js";

const MIB = 1024 * 1024;

const LINES: Array<[name: string, outcome: RunOutcome, line: string]> = [
  [
    "non-zero exit",
    outcomes.exited("a.py", 3),
    "SCRIPT_FAILED: script 'a.py' exited with code 3; fix: read its output; the script reported the failure itself",
  ],
  [
    "signal",
    outcomes.killedBy("a.py", "SIGSEGV"),
    "SCRIPT_FAILED: script 'a.py' was killed by signal SIGSEGV; fix: read its output; the script crashed or a process of its own killed it",
  ],
  [
    "timeout",
    outcomes.timeout("a.py", 2_500),
    "SCRIPT_FAILED: script 'a.py' exceeded the 2.5 s time limit and was killed with its process tree; fix: make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)",
  ],
  [
    "memory",
    outcomes.memory("a.py", 128 * MIB),
    "SCRIPT_FAILED: script 'a.py' exceeded the memory limit of 128 MiB; fix: use less memory or raise exec.memory_mb for this skill",
  ],
  [
    "output",
    outcomes.output("a.py", 65_536),
    "SCRIPT_FAILED: script 'a.py' wrote more than 65536 bytes to stdout+stderr and was killed; the output kept is the first 65536 bytes; fix: write large results to a file under OUT or raise exec.output_bytes",
  ],
  [
    "workspace files",
    outcomes.workspace("a.py", { kind: "files", count: 10_001, limit: 10_000 }),
    "SCRIPT_WORKSPACE_LIMIT: script 'a.py' created 10001 new files and folders in its writable area (workspace and run temp folder), over the budget of 10000 per run, and was killed with its process tree; what it wrote stays; fix: write fewer files (an archive, or one file per result), or raise exec.workspace_files",
  ],
  [
    "workspace bytes (grown bytes rounded up, budget rounded)",
    outcomes.workspace("a.py", { kind: "bytes", count: 256 * MIB + 1, limit: 256 * MIB }),
    "SCRIPT_WORKSPACE_LIMIT: script 'a.py' grew its writable area (workspace and run temp folder) by 257 MiB, over the budget of 256 MiB per run, and was killed with its process tree; what it wrote stays; fix: write less, or raise exec.workspace_mb",
  ],
  [
    "spawn failed",
    outcomes.spawnFailed("a.py", "/usr/bin/python9", "ENOENT", "/ws"),
    "SCRIPT_SPAWN_FAILED: script 'a.py' could not be started: spawning /usr/bin/python9 in /ws failed with ENOENT; fix: check that /usr/bin/python9 exists and is executable and that the folder /ws exists",
  ],
  ["refused", outcomes.refused("what", "how"), "SCAN_REFUSED: what; fix: how"],
  ["unavailable", outcomes.unavailable("what", "how"), "SANDBOX_UNAVAILABLE: what; fix: how"],
  [
    "violation",
    outcomes.violation("a.py", ["/ws/.git", "/ws/sub/.git"]),
    "SANDBOX_VIOLATION: script 'a.py' created git metadata, which would run code on the host's next git command; removed: /ws/.git, /ws/sub/.git; fix: a skill script must not create .git entries",
  ],
];

describe("outcomes and outcomeLine", () => {
  it.each(LINES)("%s", (_name, outcome, line) => {
    expect(outcomeLine(outcome)).toBe(line);
  });

  it("gives ok no line, and every failure the status and code its kind stands for", () => {
    expect(outcomeLine(outcomes.ok())).toBeUndefined();
    expect(LINES.map(([, outcome]) => outcome.status)).toEqual([
      "nonzero_exit",
      "signal",
      "timeout",
      "memory_limit",
      "output_limit",
      "workspace_limit",
      "workspace_limit",
      "spawn_failed",
      "refused",
      "sandbox_unavailable",
      "sandbox_violation",
    ]);
  });

  it("keeps the facts a program reads beside the message", () => {
    expect(outcomes.exited("a.py", 3)).toMatchObject({ exitCode: 3 });
    expect(outcomes.timeout("a.py", 1000)).toMatchObject({ limitMs: 1000 });
    expect(outcomes.spawnFailed("a.py", "/p", "EACCES", "/ws")).toMatchObject({
      errno: "EACCES",
      path: "/p",
    });
    expect(outcomes.workspace("a.py", { kind: "files", count: 5, limit: 4 })).toMatchObject({
      kind: "files",
      count: 5,
      limit: 4,
    });
    expect(outcomes.violation("a.py", ["/ws/.git"])).toMatchObject({ removed: ["/ws/.git"] });
  });
});

describe("failureHeading", () => {
  it("uses UCAgent's wording for a non-zero exit and names status, message and fix otherwise", () => {
    expect(failureHeading(2, outcomes.exited("a.py", 7) as FailedOutcome)).toBe(
      "Command 2 failed with exit code 7:",
    );
    expect(failureHeading(1, outcomes.timeout("a.py", 3000) as FailedOutcome)).toBe(
      "Command 1 failed (timeout): script 'a.py' exceeded the 3 s time limit and was killed with its process tree; fix: make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)",
    );
  });
});

describe("splitFix", () => {
  it.each([
    ["cannot do x; fix: do y", { message: "cannot do x", fix: "do y" }],
    ["a; fix: b; fix: c", { message: "a; fix: b", fix: "c" }],
    ["no fix here", { message: "no fix here", fix: "see the cause above" }],
    ["fix: at the start", { message: "fix: at the start", fix: "see the cause above" }],
  ])("%j", (text, parts) => {
    expect(splitFix(text)).toEqual(parts);
  });
});
