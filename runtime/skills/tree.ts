// The skill tree walker: finds SKILL.md folders under a root, loads them, and re-walks single folders on change.
import fs, { type Dirent } from "node:fs";
import path from "node:path";
import { PYTHON_HOOK_NOT_RUN, pythonHookDiagnostic } from "./python-hook.js";
import { compareCodePoints } from "./text.js";
import type { CatalogSnapshot, Diagnostic, SkillRecord, ValidationMode } from "./types.js";
import { MAX_SKILL_FILE_BYTES, parseSkillFile } from "./validate.js";

export const SKILL_FILE = "SKILL.md";
export const HOOKS_FILE = "hooks.ts";
export const SCRIPTS_DIR = "scripts";
export const DEFAULT_MAX_DEPTH = 8;
export const DEFAULT_MAX_SKILLS = 10_000;
const SKIPPED_DIRS = new Set([".git", "node_modules"]);
const NOT_SCRIPTS = new Set(["__init__.py", "script_runner.json"]);

export interface ScanOptions {
  mode?: ValidationMode;
  /** Deepest folder level scanned below the root (root = 0). */
  maxDepth?: number;
  /** Skills loaded at most; the walk stops with a diagnostic when reached. */
  maxSkills?: number;
}

interface DirNode {
  id: string;
  depth: number;
  /** Names of the sub-folders walked (not skipped, not symlinks). */
  children: string[];
}

/** Mutable state of one skill root; scanSkillRoot uses it once, the catalog keeps it and refreshes folders. */
export class SkillTree {
  readonly root: string;
  readonly mode: ValidationMode;
  readonly maxDepth: number;
  readonly maxSkills: number;
  readonly dirs = new Map<string, DirNode>();
  private readonly skills = new Map<string, SkillRecord>();
  private readonly skippedByDir = new Map<string, Diagnostic[]>();
  private readonly walkDiagnostics = new Map<string, Diagnostic[]>();
  private realRoot = "";
  private orderedIds: string[] | null = null;
  private limitDiagnostic: Diagnostic | null = null;
  rootMissing: Diagnostic | null = null;

  constructor(root: string, options: ScanOptions = {}) {
    this.root = path.resolve(root);
    this.mode = options.mode ?? "ucagent";
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxSkills = options.maxSkills ?? DEFAULT_MAX_SKILLS;
  }

  /** Walks the whole root from scratch. */
  scanAll(): void {
    this.dirs.clear();
    this.skills.clear();
    this.skippedByDir.clear();
    this.walkDiagnostics.clear();
    this.orderedIds = null;
    this.limitDiagnostic = null;
    this.rootMissing = null;
    let rootStat: fs.Stats;
    try {
      this.realRoot = fs.realpathSync(this.root);
      rootStat = fs.statSync(this.realRoot);
    } catch (error) {
      this.rootMissing = {
        path: this.root,
        code: "SKILL_ROOT_MISSING",
        message: `skill root ${this.root} does not exist (${errorCode(error)}); create it or run "skillgate init" to copy the skill pack into the workspace`,
        severity: "error",
      };
      return;
    }
    if (!rootStat.isDirectory()) {
      this.rootMissing = {
        path: this.root,
        code: "SKILL_ROOT_MISSING",
        message: `skill root ${this.root} is not a folder; point the skill root at the folder that holds the skill folders`,
        severity: "error",
      };
      return;
    }
    this.walk(this.root, "", 0, undefined);
    // The walk visits folders in catalog order, so insertion order is already sorted.
    this.orderedIds = [...this.skills.keys()];
  }

  /** Re-reads one folder: its SKILL.md, its scripts, new and removed sub-folders (walked / dropped whole). */
  refreshDir(dir: string): void {
    const node = this.dirs.get(dir);
    if (!node) return;
    let entries: Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === this.root) {
        this.scanAll();
        return;
      }
      if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") {
        this.dropSubtree(dir);
        return;
      }
      this.dropSubtree(dir);
      this.dirs.set(dir, { id: node.id, depth: node.depth, children: [] });
      this.addWalkDiagnostic(dir, unreadableDir(dir, error));
      return;
    }
    // Forget this folder's own findings, then walk it again without descending into known children.
    this.walkDiagnostics.delete(dir);
    const known = new Set(node.children);
    this.visitEntries(dir, node.id, node.depth, entries, known);
    this.updateScriptsOf(dir, entries);
  }

  /** When `dir` is a skill's scripts/ folder, its listing changed: update that skill's scripts. */
  private updateScriptsOf(dir: string, entries: Dirent[]): void {
    if (path.basename(dir) !== SCRIPTS_DIR) return;
    const parent = path.dirname(dir);
    if (this.skills.has(parent)) this.updateScripts(parent, entries);
  }

  /** Forgets everything under `dir` and walks it again (the folder was deleted, moved or replaced). */
  rewalkDir(dir: string): void {
    const node = this.dirs.get(dir);
    if (!node) return;
    if (dir === this.root) {
      this.scanAll();
      return;
    }
    this.dropSubtree(dir);
    let entries: Dirent[];
    try {
      if (!fs.lstatSync(dir).isDirectory()) return;
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone: the parent's refresh forgets the name
    }
    this.visitEntries(dir, node.id, node.depth, entries, undefined);
    this.updateScriptsOf(dir, entries);
  }

  snapshot(generation: number): CatalogSnapshot {
    if (this.rootMissing) return { root: this.root, skills: [], skipped: [this.rootMissing], generation };
    const skills = this.sortedSkills();
    const skipped: Diagnostic[] = [];
    const dirsInOrder = [...new Set([...this.walkDiagnostics.keys(), ...this.skippedByDir.keys()])].sort(
      (a, b) => compareIds(this.idOf(a), this.idOf(b)),
    );
    for (const dir of dirsInOrder) {
      skipped.push(...(this.walkDiagnostics.get(dir) ?? []), ...(this.skippedByDir.get(dir) ?? []));
    }
    if (this.limitDiagnostic) skipped.push(this.limitDiagnostic);
    return { root: this.root, skills, skipped, generation };
  }

  /** Every folder walked (for change watching). */
  walkedDirs(): string[] {
    return [...this.dirs.keys()];
  }

  skillFileOf(dir: string): string {
    return path.join(dir, SKILL_FILE);
  }

  private sortedSkills(): SkillRecord[] {
    if (!this.orderedIds) {
      // Split each id once, not once per comparison.
      const keyed = [...this.skills.keys()].map((dir) => ({ dir, segments: this.idOf(dir).split("/") }));
      keyed.sort((a, b) => compareSegments(a.segments, b.segments));
      this.orderedIds = keyed.map((entry) => entry.dir);
    }
    return this.orderedIds.map((dir) => this.skills.get(dir) as SkillRecord);
  }

  private idOf(dir: string): string {
    return this.dirs.get(dir)?.id ?? toId(path.relative(this.root, dir));
  }

  private walk(dir: string, id: string, depth: number, preread: Dirent[] | undefined): void {
    let entries = preread;
    if (!entries) {
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        this.dirs.set(dir, { id, depth, children: [] });
        this.addWalkDiagnostic(dir, unreadableDir(dir, error));
        return;
      }
    }
    this.visitEntries(dir, id, depth, entries, undefined);
  }

  /** `known`: children already walked (a refresh keeps them and only walks new ones). */
  private visitEntries(
    dir: string,
    id: string,
    depth: number,
    entries: Dirent[],
    known: Set<string> | undefined,
  ): void {
    const node: DirNode = { id, depth, children: [] };
    this.dirs.set(dir, node);
    let skillEntry: Dirent | undefined;
    let scriptsEntries: Dirent[] | undefined;
    let hasHooks = false;
    const subdirs: Dirent[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name === SKILL_FILE) skillEntry = entry;
      else if (name === HOOKS_FILE) hasHooks = entry.isFile() || entry.isSymbolicLink();
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) subdirs.push(entry);
      } else if (entry.isSymbolicLink() && name !== SKILL_FILE && name !== HOOKS_FILE) {
        this.checkDirSymlink(dir, entry);
      }
    }

    const wasLoaded = this.skills.has(dir);
    this.skills.delete(dir);
    this.skippedByDir.delete(dir);
    if (skillEntry) {
      if (dir === this.root) {
        this.addWalkDiagnostic(dir, {
          path: path.join(dir, SKILL_FILE),
          code: "ROOT_IS_SKILL",
          message: `the skill root ${dir} itself holds SKILL.md, so it has no id and is not listed; use its parent folder as the skill root`,
          severity: "warning",
        });
      } else if (this.skills.size >= this.maxSkills) {
        this.limitDiagnostic = {
          path: this.root,
          code: "SKILL_LIMIT",
          message: `more than ${this.maxSkills} skills under ${this.root}; the rest were not loaded — split the skill root or raise maxSkills`,
          severity: "warning",
        };
      } else {
        const scriptsDirent = subdirs.find((entry) => entry.name === SCRIPTS_DIR);
        if (scriptsDirent) scriptsEntries = readEntries(childPath(dir, SCRIPTS_DIR));
        this.loadSkill(
          dir,
          id,
          hasHooks,
          scriptsEntries ?? [],
          skillEntry.isSymbolicLink(),
          skillEntry.isFile() || skillEntry.isSymbolicLink(),
        );
      }
    }
    if (wasLoaded !== this.skills.has(dir)) this.orderedIds = null;

    if (subdirs.length > 0 && depth >= this.maxDepth) {
      this.addWalkDiagnostic(dir, {
        path: dir,
        code: "DEPTH_LIMIT",
        message: `folder ${id || "."} is at the depth limit (${this.maxDepth}); its sub-folders were not scanned — move skills higher or raise maxDepth`,
        severity: "warning",
      });
      return;
    }
    if (subdirs.length > 1) subdirs.sort((a, b) => compareCodePoints(a.name, b.name));
    for (const entry of subdirs) {
      node.children.push(entry.name);
      const childDir = childPath(dir, entry.name);
      if (known?.has(entry.name) && this.dirs.has(childDir)) continue;
      const childId = id === "" ? entry.name : `${id}/${entry.name}`;
      const reuse = entry.name === SCRIPTS_DIR ? scriptsEntries : undefined;
      this.walk(childDir, childId, depth + 1, reuse);
    }
    if (known && known.size > 0) {
      const present = new Set(node.children);
      for (const name of known) if (!present.has(name)) this.dropSubtree(childPath(dir, name));
    }
  }

  private loadSkill(
    dir: string,
    id: string,
    hasHooks: boolean,
    scriptsEntries: Dirent[],
    isLink: boolean,
    isRegular: boolean,
  ): void {
    const file = childPath(dir, SKILL_FILE);
    // A dirent that is neither a file nor a symlink (a FIFO, a socket) must not be opened: it could block.
    const read = isRegular
      ? readSkillFile(file, isLink ? this.realRoot : undefined)
      : { ok: false as const, diagnostic: notRegular(file) };
    if (!read.ok) {
      this.skippedByDir.set(dir, [read.diagnostic]);
      return;
    }
    let parsed: ReturnType<typeof parseSkillFile>;
    try {
      parsed = parseSkillFile(read.content, file, this.mode);
    } catch (error) {
      // A bug of ours on one odd file must not take the whole catalog down: skip it, say so loudly.
      const detail = error instanceof Error ? error.message : String(error);
      this.skippedByDir.set(dir, [
        {
          path: file,
          code: "INTERNAL_ERROR",
          message: `skillgate failed while parsing this SKILL.md (${detail}); the skill was skipped — please report this with the file attached`,
          severity: "error",
        },
      ]);
      return;
    }
    if (!parsed.ok || !parsed.parsed) {
      this.skippedByDir.set(dir, parsed.diagnostics);
      return;
    }
    const skill: SkillRecord = {
      id,
      root: this.root,
      dir,
      skillFile: file,
      ...parsed.parsed,
      scripts: scriptNames(childPath(dir, SCRIPTS_DIR), scriptsEntries),
      hasHooks,
      diagnostics: withPythonHook(parsed.diagnostics, dir, scriptsEntries, hasHooks),
    };
    this.skills.set(dir, skill);
  }

  private updateScripts(skillDir: string, scriptsEntries: Dirent[]): void {
    const skill = this.skills.get(skillDir);
    if (!skill) return;
    this.skills.set(skillDir, {
      ...skill,
      scripts: scriptNames(path.join(skillDir, SCRIPTS_DIR), scriptsEntries),
      diagnostics: withPythonHook(skill.diagnostics, skillDir, scriptsEntries, skill.hasHooks),
    });
  }

  private checkDirSymlink(dir: string, entry: Dirent): void {
    // Directory symlinks are never followed: one pointing inside the root would list the same skill
    // twice under two ids (and can loop); one pointing outside would escape the root. Only the escape
    // is reported, as it usually means a skill was linked instead of copied.
    const link = path.join(dir, entry.name);
    let target: string;
    try {
      if (!fs.statSync(link).isDirectory()) return;
      target = fs.realpathSync(link);
    } catch {
      return;
    }
    if (isInside(this.realRoot, target)) return;
    this.addWalkDiagnostic(dir, {
      path: link,
      code: "SYMLINK_ESCAPE",
      message: `folder symlink ${link} points outside the skill root to ${target}; not followed — copy that folder into the skill root instead`,
      severity: "warning",
    });
  }

  private dropSubtree(dir: string): void {
    const prefix = dir + path.sep;
    for (const key of [...this.dirs.keys()]) {
      if (key === dir || key.startsWith(prefix)) {
        this.dirs.delete(key);
        if (this.skills.delete(key)) this.orderedIds = null;
        this.skippedByDir.delete(key);
        this.walkDiagnostics.delete(key);
      }
    }
  }

  private addWalkDiagnostic(dir: string, diagnostic: Diagnostic): void {
    const list = this.walkDiagnostics.get(dir);
    if (list) list.push(diagnostic);
    else this.walkDiagnostics.set(dir, [diagnostic]);
  }
}

type ReadOutcome = { ok: true; content: Buffer } | { ok: false; diagnostic: Diagnostic };

// One reusable read buffer: nearly every SKILL.md fits, so a scan reads each file with one open + one
// read (no fstat, no per-file allocation). Callers decode the bytes before the next read.
const CHUNK_BYTES = 64 * 1024;
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);

/**
 * Reads SKILL.md, refusing more than 10 MiB without reading past the limit. The returned bytes may be a
 * view of a shared buffer: use them before calling again. Call only for regular files (or symlinks to
 * them): opening a FIFO would block. `linkRoot` is given when SKILL.md is a symlink: its target must
 * then stay inside that (real) root.
 */
export function readSkillFile(file: string, linkRoot: string | undefined): ReadOutcome {
  if (linkRoot) {
    let escaped: Diagnostic | null;
    try {
      escaped = symlinkEscape(file, linkRoot);
    } catch (error) {
      return { ok: false, diagnostic: unreadableFile(file, error) };
    }
    if (escaped) return { ok: false, diagnostic: escaped };
  }
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    return { ok: false, diagnostic: unreadableFile(file, error) };
  }
  try {
    const first = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
    if (first < CHUNK_BYTES) return { ok: true, content: chunk.subarray(0, first) };
    const parts = [Buffer.from(chunk)];
    let total = first;
    while (total <= MAX_SKILL_FILE_BYTES) {
      const part = Buffer.allocUnsafe(Math.min(1024 * 1024, MAX_SKILL_FILE_BYTES + 1 - total));
      const count = fs.readSync(fd, part, 0, part.length, null);
      if (count === 0) break;
      parts.push(part.subarray(0, count));
      total += count;
    }
    if (total > MAX_SKILL_FILE_BYTES) {
      const size = fs.fstatSync(fd).size;
      return {
        ok: false,
        diagnostic: {
          path: file,
          code: "TOO_LARGE",
          message: `SKILL.md is ${size} bytes, over the 10 MiB limit (${MAX_SKILL_FILE_BYTES} bytes); move long material into references/ and keep SKILL.md short`,
          severity: "error",
        },
      };
    }
    return { ok: true, content: Buffer.concat(parts, total) };
  } catch (error) {
    return { ok: false, diagnostic: unreadableFile(file, error) };
  } finally {
    fs.closeSync(fd);
  }
}

function symlinkEscape(file: string, realRoot: string): Diagnostic | null {
  const target = fs.realpathSync(file);
  if (isInside(realRoot, target)) return null;
  return {
    path: file,
    code: "SYMLINK_ESCAPE",
    message: `SKILL.md ${file} is a symlink to ${target}, outside the skill root; not loaded — copy the file into the skill folder instead`,
    severity: "error",
  };
}

/** The diagnostics with the Python-hook warning (re)computed from the current scripts/ listing. */
function withPythonHook(
  diagnostics: Diagnostic[],
  skillDir: string,
  scriptsEntries: Dirent[],
  hasHooks: boolean,
): Diagnostic[] {
  const kept = diagnostics.filter((diagnostic) => diagnostic.code !== PYTHON_HOOK_NOT_RUN);
  const hook = pythonHookDiagnostic(skillDir, scriptsEntries, hasHooks);
  if (!hook) return kept.length === diagnostics.length ? diagnostics : kept;
  return [...kept, hook];
}

export function scriptNames(scriptsDir: string, entries: Dirent[]): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith(".") || NOT_SCRIPTS.has(name)) continue;
    if (entry.isFile()) names.push(name);
    else if (entry.isSymbolicLink()) {
      try {
        if (fs.statSync(path.join(scriptsDir, name)).isFile()) names.push(name);
      } catch {
        // A dangling link is not a script.
      }
    }
  }
  return names.sort(compareCodePoints);
}

export function readEntries(dir: string): Dirent[] | undefined {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/** Catalog order: compare ids segment by segment by code point (`a` < `a/b` < `a-b`). */
export function compareIds(a: string, b: string): number {
  return compareSegments(a.split("/"), b.split("/"));
}

function compareSegments(left: string[], right: string[]): number {
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

export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const relative = path.relative(parent, child);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

export function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error
    ? String(error.code)
    : "unknown error";
}

function unreadableFile(file: string, error: unknown): Diagnostic {
  return {
    path: file,
    code: "UNREADABLE",
    message: `cannot read SKILL.md (${errorCode(error)}): ${file}; make it a readable regular file or remove the folder`,
    severity: "error",
  };
}

function notRegular(file: string): Diagnostic {
  return {
    path: file,
    code: "UNREADABLE",
    message: `cannot read SKILL.md: ${file} is not a regular file; replace it with a regular UTF-8 text file`,
    severity: "error",
  };
}

function unreadableDir(dir: string, error: unknown): Diagnostic {
  return {
    path: dir,
    code: "DIR_UNREADABLE",
    message: `cannot list folder ${dir} (${errorCode(error)}); its skills were not loaded — fix the folder permissions`,
    severity: "warning",
  };
}
