// Public API of the stage engine: workflow validation, checkers, hooks and the engine behind Check/Complete/SetSkillUsage.

export type { CheckerContext, CheckerKind, CheckerOutcome } from "./checkers/index.js";
export { CHECKER_KINDS, checkerArgProblems, runChecker } from "./checkers/index.js";
export type { SkillgateStageEngine, StageEngineOptions } from "./engine.js";
export { createStageEngine } from "./engine.js";
export type { OutputFingerprint } from "./fingerprint.js";
export { changedOutputs, fingerprintOutputs } from "./fingerprint.js";
export { checkFreshness, usageFreshness } from "./freshness.js";
export type {
  CheckSummary,
  HookableMethod,
  HookFunction,
  HookImporter,
  HookLoadOptions,
  HookReport,
} from "./hooks.js";
export { applySkillHooks, HOOKABLE_METHODS, importHookFile, StageInstance } from "./hooks.js";
export {
  errorResult,
  okResult,
  resultFromError,
  skillRootMissingResult,
  skillsDisabledResult,
  withWarnings,
  workspaceRelative,
} from "./results.js";
export type {
  StatusGate,
  StatusReport,
  StatusSkillRow,
  StatusStageRow,
} from "./status-render.js";
export { renderStatusText, statusReport } from "./status-render.js";
export type { Colour, SkillRow, StageRow } from "./status-table.js";
export { renderStatusTable, stageRows } from "./status-table.js";
export type { EvidenceKind, ReadRange, SkillEvidence, StageEngine, StageView } from "./types.js";
export type { WorkflowInput } from "./workflow.js";
export { assertWorkflowStartable, fatalWorkflowErrors, validateWorkflow } from "./workflow.js";
