// Last stage of a run: turns what supervision saw into the one outcome and the RunResult record.
import { constants as osConstants } from "node:os";
import { outcomeLine, outcomes, type RunOutcome } from "../outcome.js";
import type { ExecPlan, Stopped } from "../plan/plan.js";
import type { Supervised } from "../supervise/supervise.js";
import type { RunResult } from "../types.js";

const MEMORY_MESSAGES =
  /MemoryError|Cannot allocate memory|out of memory|bad_alloc|heap limit|Allocation failed|ENOMEM/i;

/** Signal name for an exit code bwrap (or the level-1 reaper) reports as 128+N when its child died by signal N. */
function signalFromCode(code: number): string | null {
  if (code <= 128 || code > 128 + 64) return null;
  const signals = osConstants.signals as unknown as Record<string, number>;
  const found = Object.entries(signals).find(([, value]) => value === code - 128);
  return found ? found[0] : null;
}

export interface Ended {
  run: Supervised;
  argv: string[];
  cwd: string;
  /** The argv reports a child's death by signal N as exit 128+N (bwrap, the level-1 pid namespace). */
  signalAsCode: boolean;
  /** `.git` entries the run created and that were removed. */
  planted: string[];
}

/** The outcome of a run that was spawned; the first matching cause wins. */
export function outcomeOf(
  plan: ExecPlan,
  ended: Ended,
): { outcome: RunOutcome; exitCode: number | null; signal: string | null } {
  const { run, planted } = ended;
  const { script, req } = plan;
  let exitCode = run.exit.code;
  let signal: string | null = run.exit.signal;
  if (ended.signalAsCode && exitCode !== null && signal === null) {
    const inner = signalFromCode(exitCode);
    if (inner !== null) {
      signal = inner;
      exitCode = null;
    }
  }
  const limits = req.limits;
  const killed = { exitCode: null, signal: "SIGKILL" };
  if (run.setupError !== undefined) {
    return {
      outcome: outcomes.unavailable(
        `the sandbox for script '${script}' could not be set up, so the script did not run: ${run.setupError}`,
        "see the cause, or remove the grant that needs it",
      ),
      exitCode,
      signal,
    };
  }
  if (planted.length > 0) return { outcome: outcomes.violation(script, planted), exitCode, signal };
  if (run.exit.error) {
    const error = run.exit.error;
    return {
      outcome: outcomes.spawnFailed(
        script,
        error.path ?? ended.argv[0] ?? "",
        error.code ?? error.message,
        ended.cwd,
      ),
      exitCode: null,
      signal: null,
    };
  }
  switch (run.limit) {
    case "timeout":
      return { outcome: outcomes.timeout(script, limits.timeoutMs), ...killed };
    case "memory_limit":
      return { outcome: outcomes.memory(script, limits.memoryBytes), ...killed };
    case "output_limit":
      return { outcome: outcomes.output(script, limits.outputBytes), ...killed };
    case "workspace_limit":
      if (run.workspaceExcess) return { outcome: outcomes.workspace(script, run.workspaceExcess), ...killed };
  }
  const memory = run.oomKilled || MEMORY_MESSAGES.test(run.output);
  if (signal !== null) {
    return {
      outcome: memory ? outcomes.memory(script, limits.memoryBytes) : outcomes.killedBy(script, signal),
      exitCode,
      signal,
    };
  }
  if (exitCode === 0) return { outcome: outcomes.ok(), exitCode, signal };
  const outcome = memory
    ? outcomes.memory(script, limits.memoryBytes)
    : outcomes.exited(script, exitCode ?? -1);
  return { outcome, exitCode, signal };
}

/** The one RunResult shape, for a run that ended and for one stopped before it started. */
export function resultOf(
  plan: Pick<ExecPlan, "req" | "runId" | "command">,
  outcome: RunOutcome,
  facts: Partial<
    Pick<
      RunResult,
      | "exitCode"
      | "signal"
      | "durationMs"
      | "peakMemoryBytes"
      | "output"
      | "stdout"
      | "stderr"
      | "truncated"
      | "findings"
    >
  > & {
    sandboxed: boolean;
    warnings: string[];
  },
): RunResult {
  const line = outcomeLine(outcome);
  return {
    outcome,
    status: outcome.status,
    argv: plan.command,
    exitCode: facts.exitCode ?? null,
    signal: facts.signal ?? null,
    timedOut: outcome.status === "timeout",
    durationMs: facts.durationMs ?? 0,
    peakMemoryBytes: facts.peakMemoryBytes ?? null,
    output: facts.output ?? "",
    stdout: facts.stdout ?? "",
    stderr: facts.stderr ?? "",
    truncated: facts.truncated ?? false,
    sandboxed: facts.sandboxed,
    warnings: facts.warnings,
    ...(outcome.status === "ok" ? {} : { code: outcome.code, message: line }),
    ...(facts.findings ? { findings: facts.findings } : {}),
    runId: plan.runId,
  };
}

export function stoppedResult(
  plan: Pick<ExecPlan, "req" | "runId" | "command">,
  stopped: Stopped,
): RunResult {
  return resultOf(plan, stopped.outcome, stopped);
}
