// Public discovery entry points: scan a skill root, validate one skill folder, normalise skill ids.
import fs from "node:fs";
import path from "node:path";
import { SkillTree } from "./tree.js";
import type { ScanOptions } from "./tree-files.js";
import { HOOKS_FILE, readEntries, SCRIPTS_DIR, SKILL_FILE, scriptNames, toId } from "./tree-files.js";
import { errorCode, readSkillFile } from "./tree-read.js";
import type { CatalogSnapshot, SkillRecord, ValidationMode, ValidationResult } from "./types.js";
import { parseSkillFile } from "./validate.js";

/** Walks `root` once and returns every loadable skill in catalog order plus the diagnostics of the rest. */
export function scanSkillRoot(root: string, options: ScanOptions = {}): CatalogSnapshot {
  const tree = new SkillTree(root, options);
  tree.scanAll();
  return tree.snapshot(1);
}

/**
 * Validates the skill in `dir` (a folder holding SKILL.md). The id is `dir` relative to `options.root`
 * when given, else the folder name. `ok` is false when the skill would be skipped (or, in strict mode,
 * breaks any spec rule).
 */
export function validateSkillDir(
  dir: string,
  mode: ValidationMode = "ucagent",
  options: { root?: string } = {},
): ValidationResult {
  const absolute = path.resolve(dir);
  const error = (code: string, message: string): ValidationResult => ({
    ok: false,
    diagnostics: [{ path: absolute, code, message, severity: "error" }],
  });
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch (cause) {
    return error(
      "PATH_NOT_FOUND",
      `skill folder ${absolute} does not exist (${errorCode(cause)}); check the path`,
    );
  }
  if (!stat.isDirectory()) {
    return error("NOT_A_FOLDER", `${absolute} is not a folder; pass the folder that holds SKILL.md`);
  }
  const file = path.join(absolute, SKILL_FILE);
  const entries = readEntries(absolute) ?? [];
  const skillEntry = entries.find((entry) => entry.name === SKILL_FILE);
  if (!skillEntry) {
    return error(
      "NO_SKILL_FILE",
      `${absolute} holds no file named exactly SKILL.md; add one with name and description frontmatter`,
    );
  }
  if (!skillEntry.isFile() && !skillEntry.isSymbolicLink()) {
    return error(
      "UNREADABLE",
      `cannot read SKILL.md: ${file} is not a regular file; replace it with a regular UTF-8 text file`,
    );
  }
  const read = readSkillFile(file, undefined);
  if (!read.ok) return { ok: false, diagnostics: [read.diagnostic] };
  const parsed = parseSkillFile(read.content, file, mode);
  if (!parsed.ok || !parsed.parsed) return { ok: false, diagnostics: parsed.diagnostics };
  const root = options.root ? path.resolve(options.root) : path.dirname(absolute);
  const scriptsDir = path.join(absolute, SCRIPTS_DIR);
  const skill: SkillRecord = {
    id: toId(path.relative(root, absolute)),
    root,
    dir: absolute,
    skillFile: file,
    ...parsed.parsed,
    scripts: scriptNames(scriptsDir, readEntries(scriptsDir) ?? []),
    hasHooks: entries.some((entry) => entry.name === HOOKS_FILE),
    diagnostics: parsed.diagnostics,
  };
  return { ok: true, diagnostics: parsed.diagnostics, skill };
}

/**
 * A skill id as written in config (`./a/b/`, `a//b` → `a/b`); null when empty, absolute, or escaping
 * the root through `..`. `.` segments are dropped; `..` inside (`a/../b`) resolves to `b`.
 */
export function normaliseSkillId(raw: string): string | null {
  if (typeof raw !== "string") return null;
  const text = raw;
  if (text === "" || text.startsWith("/") || text.includes("\0")) return null;
  const segments: string[] = [];
  for (const segment of text.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return null;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments.length === 0 ? null : segments.join("/");
}
