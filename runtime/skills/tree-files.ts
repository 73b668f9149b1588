// Reading one skill folder for the tree walker: SKILL.md (bounded, symlink-checked), scripts/, ids and catalog order.
import fs from "node:fs";
import path from "node:path";
import { PYTHON_HOOK_NOT_RUN, pythonHookDiagnostic } from "./python-hook.js";
import { compareCodePoints, sortCodePoints } from "./text.js";
import type { DirEntry } from "./tree-prefetch.js";
import { notRegular, readSkillFile } from "./tree-read.js";
import type { ScanRecorder } from "./tree-record.js";
import type { Diagnostic, SkillRecord, ValidationMode } from "./types.js";
import { parseSkillFile } from "./validate.js";

export const SKILL_FILE = "SKILL.md";
export const HOOKS_FILE = "hooks.ts";
export const SCRIPTS_DIR = "scripts";
export const DEFAULT_MAX_DEPTH = 8;
export const DEFAULT_MAX_SKILLS = 10_000;

export interface ScanOptions {
  mode?: ValidationMode;
  /** Deepest folder level scanned below the root (root = 0). */
  maxDepth?: number;
  /** Skills loaded at most; the walk stops with a diagnostic when reached. */
  maxSkills?: number;
}

export interface SkillFolder {
  dir: string;
  id: string;
  root: string;
  mode: ValidationMode;
  hasHooks: boolean;
  scriptsEntries: DirEntry[];
  /** False for a FIFO, socket or device named SKILL.md: it must not be opened (it could block). */
  isRegular: boolean;
  /** The real skill root when SKILL.md is a symlink: its target must stay inside. */
  linkRoot: string | undefined;
  /** SKILL.md's bytes when the native prefetch already read them (a regular file, tree-prefetch.ts). */
  prefetched?: Buffer | undefined;
  /** Told what the record depends on, for the on-disk index (tree-record.ts). */
  recorder?: ScanRecorder | undefined;
}

/** Loads one skill folder: its record, or the diagnostics it was skipped with. */
export function loadSkillRecord(folder: SkillFolder): { skill: SkillRecord } | { skipped: Diagnostic[] } {
  const { dir, scriptsEntries, hasHooks, recorder } = folder;
  const file = childPath(dir, SKILL_FILE);
  if (recorder) recordSkillFolder(recorder, file, folder);
  const read = !folder.isRegular
    ? { ok: false as const, diagnostic: notRegular(file) }
    : folder.prefetched
      ? { ok: true as const, content: folder.prefetched }
      : readSkillFile(file, folder.linkRoot);
  if (!read.ok) return { skipped: [read.diagnostic] };
  let parsed: ReturnType<typeof parseSkillFile>;
  try {
    parsed = parseSkillFile(read.content, file, folder.mode);
  } catch (error) {
    // A bug of ours on one odd file must not take the whole catalog down: skip it, say so loudly.
    const detail = error instanceof Error ? error.message : String(error);
    return {
      skipped: [
        {
          path: file,
          code: "INTERNAL_ERROR",
          message: `skillgate failed while parsing this SKILL.md (${detail}); the skill was skipped — please report this with the file attached`,
          severity: "error",
        },
      ],
    };
  }
  if (!parsed.ok || !parsed.parsed) return { skipped: parsed.diagnostics };
  const { name, description, metadata, frontmatter, body } = parsed.parsed;
  // Written out in the spread's order: after a spread each field is defined through the runtime (~1,500 Ir each).
  return {
    skill: {
      id: folder.id,
      root: folder.root,
      dir,
      skillFile: file,
      name,
      description,
      metadata,
      frontmatter,
      body,
      scripts: scriptNames(childPath(dir, SCRIPTS_DIR), scriptsEntries),
      hasHooks,
      diagnostics: withPythonHook(parsed.diagnostics, dir, scriptsEntries, hasHooks),
    },
  };
}

/** What one skill's record depends on beyond its folder listing: SKILL.md, scripts/__init__.py, symlinked scripts. */
function recordSkillFolder(recorder: ScanRecorder, file: string, folder: SkillFolder): void {
  if (folder.linkRoot !== undefined) recorder.volatile();
  else if (folder.isRegular) recorder.file(file);
  for (const entry of folder.scriptsEntries) {
    if (entry.isSymbolicLink()) recorder.volatile();
    else if (entry.name === "__init__.py" && entry.isFile())
      recorder.file(childPath(childPath(folder.dir, SCRIPTS_DIR), entry.name));
  }
}

/** The diagnostics with the Python-hook warning (re)computed from the current scripts/ listing. */
export function withPythonHook(
  diagnostics: Diagnostic[],
  skillDir: string,
  scriptsEntries: DirEntry[],
  hasHooks: boolean,
): Diagnostic[] {
  const hook = pythonHookDiagnostic(skillDir, scriptsEntries, hasHooks);
  // The common case of a scan: no hook warning to drop or add, so no copy of the list.
  if (!hook && !diagnostics.some((diagnostic) => diagnostic.code === PYTHON_HOOK_NOT_RUN)) return diagnostics;
  const kept = diagnostics.filter((diagnostic) => diagnostic.code !== PYTHON_HOOK_NOT_RUN);
  if (!hook) return kept.length === diagnostics.length ? diagnostics : kept;
  return [...kept, hook];
}

/** `skill` with its scripts and Python-hook warning taken from a new listing of its scripts/ folder. */
export function withScripts(skill: SkillRecord, skillDir: string, scriptsEntries: DirEntry[]): SkillRecord {
  return {
    ...skill,
    scripts: scriptNames(path.join(skillDir, SCRIPTS_DIR), scriptsEntries),
    diagnostics: withPythonHook(skill.diagnostics, skillDir, scriptsEntries, skill.hasHooks),
  };
}

export function scriptNames(scriptsDir: string, entries: DirEntry[]): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    // Compared, not looked up in a Set: a lookup hashes every name (0.6% of a cold catalog's Ir with the skipped folders).
    if (name.startsWith(".") || name === "__init__.py" || name === "script_runner.json") continue;
    if (entry.isFile()) names.push(name);
    else if (entry.isSymbolicLink()) {
      try {
        if (fs.statSync(path.join(scriptsDir, name)).isFile()) names.push(name);
      } catch {
        // A dangling link is not a script.
      }
    }
  }
  return sortCodePoints(names);
}

/** The listing of `dir`, or undefined when it cannot be read (a recorder is told either way). */
export function readEntries(dir: string, recorder?: ScanRecorder): DirEntry[] | undefined {
  try {
    recorder?.dir(dir);
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    recorder?.volatile();
    return undefined;
  }
}

/** Catalog order: compare ids segment by segment by code point (`a` < `a/b` < `a-b`). */
export function compareIds(a: string, b: string): number {
  return compareSegments(a.split("/"), b.split("/"));
}

export function compareSegments(left: string[], right: string[]): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const order = compareCodePoints(left[index] as string, right[index] as string);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

/** path.join without normalising: every path here is already absolute and clean. */
export function childPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

export function toId(relative: string): string {
  return relative.split(path.sep).join("/");
}
