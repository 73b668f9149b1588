// Public API of the static scan (advisory below critical; never a substitute for the sandbox).

export type { ScanFs, ScanOptions } from "./files.js";
export {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_FILES,
  nodeScanFs,
  scanFiles,
  scanSkill,
} from "./files.js";
export { formatFinding, SCAN_ADVISORY_NOTE } from "./format.js";
export type { SourceKind } from "./language.js";
export { detectSourceKind, languageFromShebang } from "./language.js";
export type { MatchOptions } from "./matcher.js";
export { compareFindings, fencedBlocks, scanMarkdown, scanText } from "./matcher.js";
export type { ParseRulesResult } from "./rules.js";
export { defaultRulesFile, loadRules, parseRules } from "./rules.js";
export { HOOKS_FILE, runScanPaths } from "./run-paths.js";
export { atLeast, countBySeverity, criticalFindings, isSeverity, severityRank } from "./severity.js";
export type { Finding, RuleSet, ScanLanguage, ScanRule, ScanSeverity } from "./types.js";
export { LANGUAGES, SEVERITIES } from "./types.js";
