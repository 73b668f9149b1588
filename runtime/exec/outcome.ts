// How a run ended, as one union (status, stable code, message, fix); every outcome's wording and rendering lives here.
import type { ErrorCode } from "../errors.js";

interface Failure<Status extends string, Code extends ErrorCode> {
  status: Status;
  code: Code;
  /** What failed and where, without the code or the fix. */
  message: string;
  fix: string;
}

export type RunOutcome =
  | { status: "ok" }
  | (Failure<"nonzero_exit", "SCRIPT_FAILED"> & { exitCode: number })
  | (Failure<"signal", "SCRIPT_FAILED"> & { signal: string })
  | (Failure<"timeout", "SCRIPT_FAILED"> & { limitMs: number })
  | (Failure<"memory_limit", "SCRIPT_FAILED"> & { limitBytes: number })
  | (Failure<"output_limit", "SCRIPT_FAILED"> & { limitBytes: number })
  | (Failure<"workspace_limit", "SCRIPT_WORKSPACE_LIMIT"> & WorkspaceExcess)
  | (Failure<"spawn_failed", "SCRIPT_SPAWN_FAILED"> & { errno: string; path: string })
  | Failure<"refused", "SCAN_REFUSED">
  | Failure<"sandbox_unavailable", "SANDBOX_UNAVAILABLE">
  /** The run did something the sandbox forbids and that was undone (e.g. planted git metadata). */
  | (Failure<"sandbox_violation", "SANDBOX_VIOLATION"> & { removed: string[] });

export type RunStatus = RunOutcome["status"];
export type FailedOutcome = Exclude<RunOutcome, { status: "ok" }>;

/** What a run added to its writable area beyond the per-run budget (exec.workspace_files / exec.workspace_mb). */
export interface WorkspaceExcess {
  kind: "files" | "bytes";
  /** New entries (files, folders, links) or grown bytes, counted when the run was stopped. */
  count: number;
  limit: number;
}

const MIB = 1024 * 1024;

export const outcomes = {
  ok: (): RunOutcome => ({ status: "ok" }),
  exited: (script: string, exitCode: number): RunOutcome => ({
    status: "nonzero_exit",
    code: "SCRIPT_FAILED",
    exitCode,
    message: `script '${script}' exited with code ${exitCode}`,
    fix: "read its output; the script reported the failure itself",
  }),
  killedBy: (script: string, signal: string): RunOutcome => ({
    status: "signal",
    code: "SCRIPT_FAILED",
    signal,
    message: `script '${script}' was killed by signal ${signal}`,
    fix: "read its output; the script crashed or a process of its own killed it",
  }),
  timeout: (script: string, limitMs: number): RunOutcome => ({
    status: "timeout",
    code: "SCRIPT_FAILED",
    limitMs,
    message: `script '${script}' exceeded the ${limitMs / 1000} s time limit and was killed with its process tree`,
    fix: "make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)",
  }),
  memory: (script: string, limitBytes: number): RunOutcome => ({
    status: "memory_limit",
    code: "SCRIPT_FAILED",
    limitBytes,
    message: `script '${script}' exceeded the memory limit of ${Math.round(limitBytes / MIB)} MiB`,
    fix: "use less memory or raise exec.memory_mb for this skill",
  }),
  output: (script: string, limitBytes: number): RunOutcome => ({
    status: "output_limit",
    code: "SCRIPT_FAILED",
    limitBytes,
    message: `script '${script}' wrote more than ${limitBytes} bytes to stdout+stderr and was killed; the output kept is the first ${limitBytes} bytes`,
    fix: "write large results to a file under OUT or raise exec.output_bytes",
  }),
  workspace: (script: string, excess: WorkspaceExcess): RunOutcome => ({
    status: "workspace_limit",
    code: "SCRIPT_WORKSPACE_LIMIT",
    ...excess,
    message:
      excess.kind === "files"
        ? `script '${script}' created ${excess.count} new files and folders in its writable area (workspace and run temp folder), over the budget of ${excess.limit} per run, and was killed with its process tree; what it wrote stays`
        : `script '${script}' grew its writable area (workspace and run temp folder) by ${Math.ceil(excess.count / MIB)} MiB, over the budget of ${Math.round(excess.limit / MIB)} MiB per run, and was killed with its process tree; what it wrote stays`,
    fix:
      excess.kind === "files"
        ? "write fewer files (an archive, or one file per result), or raise exec.workspace_files"
        : "write less, or raise exec.workspace_mb",
  }),
  spawnFailed: (script: string, path: string, errno: string, cwd: string): RunOutcome => ({
    status: "spawn_failed",
    code: "SCRIPT_SPAWN_FAILED",
    errno,
    path,
    message: `script '${script}' could not be started: spawning ${path} in ${cwd} failed with ${errno}`,
    fix: `check that ${path} exists and is executable and that the folder ${cwd} exists`,
  }),
  refused: (message: string, fix: string): RunOutcome => ({
    status: "refused",
    code: "SCAN_REFUSED",
    message,
    fix,
  }),
  unavailable: (message: string, fix: string): RunOutcome => ({
    status: "sandbox_unavailable",
    code: "SANDBOX_UNAVAILABLE",
    message,
    fix,
  }),
  violation: (script: string, removed: string[]): RunOutcome => ({
    status: "sandbox_violation",
    code: "SANDBOX_VIOLATION",
    removed,
    message: `script '${script}' created git metadata, which would run code on the host's next git command; removed: ${removed.join(", ")}`,
    fix: "a skill script must not create .git entries",
  }),
};

/**
 * The JSON record's one-line message: the stable code first, so one command record reads on its own beside
 * the others of its call. Undefined for ok.
 */
export function outcomeLine(outcome: RunOutcome): string | undefined {
  if (outcome.status === "ok") return undefined;
  return `${outcome.code}: ${outcome.message}; fix: ${outcome.fix}`;
}

/** The tool text's heading of a failed command (UCAgent's wording for a non-zero exit); its output follows. */
export function failureHeading(index: number, outcome: FailedOutcome): string {
  if (outcome.status === "nonzero_exit") return `Command ${index} failed with exit code ${outcome.exitCode}:`;
  return `Command ${index} failed (${outcome.status}): ${outcome.message}; fix: ${outcome.fix}`;
}

/**
 * A SkillgateError's message split into what failed and the fix (every message of ours ends in "; fix: …"),
 * so an error raised while preparing a run becomes an outcome without its code written twice.
 */
export function splitFix(text: string): { message: string; fix: string } {
  const at = text.lastIndexOf("; fix: ");
  if (at < 0) return { message: text, fix: "see the cause above" };
  return { message: text.slice(0, at), fix: text.slice(at + "; fix: ".length) };
}
