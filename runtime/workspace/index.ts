// Public API of the workspace: paths, init (pack copy + runtime_config.json), integrity checks, atomic state writes.

export { readSmallFile, refusalReason } from "../contracts/index.js";
export { configMemoIn } from "./config-memo.js";
export { sha256Bytes, sha256File } from "./hash.js";
export type { GuideReport, InitManifest, InitOptions, InitProgress, InitReport } from "./init.js";
export { initWorkspace } from "./init.js";
export type { LockOptions } from "./lock.js";
export {
  holdsWorkspaceLock,
  LOCK_HELD_CHANNEL,
  LOCK_WAIT_CHANNEL,
  outsideHeldLocks,
  warmWorkspaceLock,
  withWorkspaceLock,
} from "./lock.js";
export type { CopyManifest, ManifestEntry } from "./manifest.js";
export { readManifest } from "./manifest.js";
export type { CopyPlan, PlannedFile } from "./plan.js";
export { findGuideDir, GUIDE_DIR_NAME, planCopy, planGuides } from "./plan.js";
export {
  buildRuntimeConfig,
  readRuntimeConfig,
  resolveWorkspacePlaceholders,
} from "./runtime-config.js";
export type {
  EntryKind,
  SafeListEntry,
  SafeListOptions,
  SafeListResult,
  SafeReadOptions,
  SafeReadResult,
  SafeStat,
  SafeTextResult,
} from "./safe-file.js";
export {
  listWorkspaceDir,
  readWorkspaceFile,
  readWorkspaceFilePrefix,
  readWorkspaceText,
  SAFE_READ_MAX_BYTES,
  statWorkspacePath,
  statWorkspacePathIfExists,
} from "./safe-file.js";
export type { SafeHashOptions, SafeHashResult } from "./safe-hash.js";
export { hashWorkspaceFile } from "./safe-hash.js";
export { ioError } from "./safe-path.js";
export type { SafeWriteOptions, SafeWriteResult, WritePolicy } from "./safe-write.js";
export {
  ALWAYS_DENIED_DIRS,
  copyWorkspaceFile,
  mkdirWorkspace,
  moveWorkspacePath,
  removeWorkspacePath,
  SAFE_WRITE_MAX_BYTES,
  writeAllowed,
  writeFileAtomic,
  writeWorkspaceFile,
} from "./safe-write.js";
export { type StagedFile, stageFileAtomic } from "./staged-write.js";
export type { VerifyResult } from "./verify.js";
export { verifyCopiedFile } from "./verify.js";
