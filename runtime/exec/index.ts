// Public API of script execution: argv splitting, runner resolution, path checks, run plans and sandboxed runs.
export { splitArgs } from "./split-args.js";
export { resolveRunner, findExecutable, type RunnerResolution, type ResolveRunnerInput } from "./runner.js";
export { checkScriptPath, scriptNameProblem } from "./script-path.js";
export { runPlanFor, type RunPlan } from "./run-plan.js";
export { runScript, resetUnsandboxedWarning } from "./run-script.js";
export { envNameProblem, filterRunEnv } from "./env.js";
export { bwrapArgv, probeBwrap, type BwrapPlan } from "./bwrap.js";
export { macosSandboxProfile, type MacosProfileInput } from "./macos-profile.js";
export type { RunLimits, RunRequest, RunResult, RunStatus, SandboxLevel, ScanFinding } from "./types.js";
