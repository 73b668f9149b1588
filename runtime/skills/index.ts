// Public API of the skill catalog: parsing and validation of SKILL.md, discovery, and the live catalog.

export { type Catalog, type CatalogOptions, createCatalog } from "./catalog.js";
export { type CatalogIndexStore, type IndexedScan, scanSkillRootIndexed } from "./catalog-index.js";
export { type SplitResult, splitFrontmatter } from "./frontmatter.js";
export { metadataString } from "./metadata.js";
export { PYTHON_HOOK_NOT_RUN, pythonHookNotes } from "./python-hook.js";
export { normaliseSkillId, scanSkillRoot, validateSkillDir } from "./scan.js";
export {
  MAX_COMPATIBILITY_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  SKILL_FRONTMATTER_SCHEMA,
  SPEC_ALLOWED_FIELDS,
} from "./spec-schema.js";
export { codePointLength, compareCodePoints } from "./text.js";
export { compareIds, DEFAULT_MAX_DEPTH, DEFAULT_MAX_SKILLS, type ScanOptions } from "./tree-files.js";
export type {
  CatalogSnapshot,
  Diagnostic,
  Severity,
  SkillRecord,
  ValidationMode,
  ValidationResult,
} from "./types.js";
export {
  MAX_SKILL_FILE_BYTES,
  type ParsedSkillFile,
  type ParseResult,
  parseSkillFile,
} from "./validate.js";
export { fenceMark } from "./watch-worker.js";
