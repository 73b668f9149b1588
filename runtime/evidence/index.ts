// Public API of the evidence ledger and the usage checker.
export { canonicalJson, hmacHex, sha256Hex } from "./canonical.js";
export type { Freshness, StageSkillInfo, UsageContext } from "./context.js";
export { evaluateGate, type GateContext, type GateSkillStatus, type GateVerdict } from "./gate.js";
export { ledgerKeyFile, loadMasterKey, workspaceKey } from "./key.js";
export {
  EvidenceLedger,
  type LedgerDeps,
  type LedgerHead,
  type LedgerSnapshot,
  type TransactionStep,
} from "./ledger.js";
export {
  GENESIS_HASH,
  type LedgerRecord,
  type RecordKind,
  recordHash,
  sealRecord,
  type UnsignedRecord,
  verifyLine,
} from "./record.js";
export {
  applyRecord,
  type CheckState,
  type CompletedStage,
  type EvidenceState,
  emptyState,
  flagsOf,
  mergeRanges,
  type SkillFlags,
  type UsageClaim,
  type UsageState,
} from "./state.js";
export { describeCoverage, evaluateSkillUsage, type UsageProblem, type UsageVerdict } from "./usage.js";
