// Public API of script execution: argv splitting, runner resolution, path checks, run plans and sandboxed runs.

export { type BwrapFeatures, type BwrapPlan, bwrapArgv } from "./bwrap.js";
export { type BwrapProbe, probeBwrap } from "./bwrap-probe.js";
export { envNameProblem, filterRunEnv } from "./env.js";
export { privateTmpDir } from "./identity.js";
export { type MacosProfileInput, macosSandboxProfile } from "./macos-profile.js";
export {
  type FailedOutcome,
  failureHeading,
  outcomeLine,
  type RunOutcome,
  type RunStatus,
} from "./outcome.js";
export { closeSharedPreparedPool, preparingAfter } from "./prepared/pool.js";
export { pythonHookCacheDir, withPythonHook } from "./prepared/python-hook.js";
export { type ParallelRuns, RunQueue, runQueueFor } from "./queue.js";
export { type RunPlan, runPlanFor } from "./run-plan.js";
export { resetUnsandboxedWarning, runScript } from "./run-script.js";
export { findExecutable, type ResolveRunnerInput, type RunnerResolution, resolveRunner } from "./runner.js";
export { checkScriptPath, scriptNameProblem } from "./script-path.js";
export { spawnOffThread } from "./spawn/spawn.js";
export { splitArgs } from "./split-args.js";
export { tsCacheDir, withTsFastPath } from "./ts-fast-path.js";
export type {
  RunLimits,
  RunRequest,
  RunResult,
  SandboxLevel,
  ScanFinding,
  WorkspaceBudget,
} from "./types.js";
