// Shared data shapes of the skill catalog: diagnostics, validation results and skill records.

export type Severity = "error" | "warning";

export interface Diagnostic {
  /** File or folder the problem is about (as given / absolute). */
  path: string;
  /** Stable machine code, e.g. "NO_FRONTMATTER", "NAME_MISMATCH". */
  code: string;
  /** What failed, the bad value, and the fix. */
  message: string;
  severity: Severity;
}

export type ValidationMode = "ucagent" | "strict" | "lenient";

export interface SkillRecord {
  /** Path of the folder relative to the skill root, "/" separated (e.g. "review/static-bug-analysis"). */
  id: string;
  /** Absolute skill root the id is relative to. */
  root: string;
  /** Absolute folder of the skill. */
  dir: string;
  /** Absolute path of SKILL.md. */
  skillFile: string;
  name: string;
  /** Truncated to 1024 code points in ucagent mode. */
  description: string;
  /** Metadata values stringified. */
  metadata: Record<string, string>;
  /** The whole parsed frontmatter mapping. */
  frontmatter: Record<string, unknown>;
  /** The Markdown body after the frontmatter. */
  body: string;
  /** Bare filenames directly in scripts/ (sorted by code point), minus __init__.py, script_runner.json, dotfiles. */
  scripts: string[];
  /** True when hooks.ts sits beside SKILL.md. */
  hasHooks: boolean;
  /** Warnings raised while loading (never errors: a skill with errors is skipped). */
  diagnostics: Diagnostic[];
}

export interface ValidationResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Present when the skill loads in this mode. */
  skill?: SkillRecord;
}

export interface CatalogSnapshot {
  root: string;
  /** Loaded skills in catalog order (code point order per path segment). */
  skills: SkillRecord[];
  /** Diagnostics of skills that were skipped, plus walk diagnostics (bounds hit, symlink escapes). */
  skipped: Diagnostic[];
  /** Increments every time the snapshot content changes. */
  generation: number;
}
