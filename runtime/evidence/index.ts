// Public API of the evidence ledger and the usage checker.

export { applyRecord } from "./apply.js";
export {
  type BindingRefusal,
  bindingChanges,
  bindingRefusal,
  bindRecord,
  type CurrentBinding,
  digestsOf,
} from "./bind-check.js";
export {
  affectedStages,
  type Binding,
  type BoundStage,
  type BoundWorkflow,
  boundWorkflow,
  describeManifestDiff,
  type ManifestDiff,
  manifestChanges,
  manifestDigest,
  manifestMap,
  workflowChanges,
  workflowDigest,
} from "./binding.js";
export { canonicalJson, hmacHex, sha256Hex } from "./canonical.js";
export type { Freshness, StageSkillInfo, UsageContext } from "./context.js";
export { type BadLine, type FoldResult, foldLines, splitLedger } from "./fold.js";
export { evaluateGate, type GateContext, type GateSkillStatus, type GateVerdict } from "./gate.js";
export {
  type HeadMark,
  type RollbackVerdict,
  readHeadMark,
  rollbackVerdict,
  type SeenChain,
} from "./head-mark.js";
export { ledgerHealthLines } from "./health-text.js";
export { newInitId, readIdentity, type WorkspaceIdentity, writeIdentity } from "./identity.js";
export { deriveSigner, ledgerKeyFile, loadMasterKey, workspaceKey } from "./key.js";
export { checkIdentity, type LedgerKeys, localKeys } from "./keys.js";
export {
  EvidenceLedger,
  LEDGER_WAIT_CHANNEL,
  type LedgerDeps,
  type LedgerHead,
  type LedgerSnapshot,
  type TransactionResult,
  type TransactionStep,
  type TransactOptions,
} from "./ledger.js";
export { syncFile as syncLedgerFile } from "./ledger-files.js";
export { type EvidenceLocations, evidenceLocations, identityFileFor } from "./locations.js";
export {
  PROOF_FORMAT,
  type ProofBundle,
  type ProofFailure,
  type StageVerdict,
  type VerifyReport,
  verifyProof,
  verifyReportLines,
} from "./proof.js";
export {
  GENESIS_HASH,
  type LedgerRecord,
  parseLine,
  type RecordKind,
  recordHash,
  sealRecord,
  type UnsignedRecord,
} from "./record.js";
export { fingerprintOf, type LedgerSigner, signerFromSeed, verifySignature } from "./signer.js";
export {
  type CheckState,
  type CompletedStage,
  type CompletionGate,
  type EvidenceState,
  emptyState,
  flagsOf,
  type LedgerIdentity,
  mergeRanges,
  type QuarantineNote,
  type SkillFlags,
  type UsageClaim,
  type UsageState,
} from "./state.js";
export { countsAsUsed, isTextMethod } from "./text-method.js";
export {
  describeCoverage,
  evaluateSkillUsage,
  RESTORE_SKILLS_HINT,
  type UsageProblem,
  type UsageVerdict,
} from "./usage.js";
