// The skill tree walker: finds SKILL.md folders under a root, loads them, and re-walks single folders on change.
import fs from "node:fs";
import path from "node:path";
import { sortCodePoints } from "./text.js";
import {
  depthLimit,
  dirSymlinkEscape,
  resolveRoot,
  rootIsSkill,
  skillLimit,
  unreadableDir,
} from "./tree-diagnostics.js";
import {
  childPath,
  compareIds,
  compareSegments,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_SKILLS,
  HOOKS_FILE,
  loadSkillRecord,
  readEntries,
  SCRIPTS_DIR,
  type ScanOptions,
  SKILL_FILE,
  toId,
  withScripts,
} from "./tree-files.js";
import { type DirEntry, type TreePrefetch, takeTreePrefetch } from "./tree-prefetch.js";
import { errorCode } from "./tree-read.js";
import type { ScanRecorder } from "./tree-record.js";
import type { CatalogSnapshot, Diagnostic, SkillRecord, ValidationMode } from "./types.js";

// Not walk/'s walker: this walk is sync and decides per folder (SKILL.md, hooks.ts, scripts/ before sub-folders; refreshDir
// re-lists one folder); walk/'s async walk costs 3.2-3.6x this walk's CPU on a 2,000-skill tree (docs/performance.md).

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
  /** True during scanAll's walk: the maps start empty, so no folder has a record to forget. */
  private fresh = false;
  /** During scanAll's walk without a recorder: listings and SKILL.md bytes the native walk already read. */
  private prefetch: TreePrefetch | undefined;
  rootMissing: Diagnostic | null = null;

  /** Set for a one-off scan whose result goes into the on-disk index: told what each result depends on. */
  private readonly recorder: ScanRecorder | undefined;

  constructor(root: string, options: ScanOptions = {}, recorder?: ScanRecorder) {
    this.recorder = recorder;
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
    const resolved = resolveRoot(this.root);
    if (resolved.realRoot !== undefined) this.realRoot = resolved.realRoot;
    if (resolved.missing) {
      this.rootMissing = resolved.missing;
      this.recorder?.volatile();
      return;
    }
    this.recorder?.root(this.realRoot);
    this.fresh = true;
    // Not with a recorder: its stamps must be taken before each read, and the prefetch reads ahead of them.
    if (!this.recorder) this.prefetch = takeTreePrefetch(this.root, this.maxDepth);
    try {
      this.walk(this.root, "", 0, undefined);
    } finally {
      this.fresh = false;
      this.prefetch = undefined;
    }
    // The walk visits folders in catalog order, so insertion order is already sorted.
    this.orderedIds = [...this.skills.keys()];
  }

  /** Re-reads one folder: its SKILL.md, its scripts, new and removed sub-folders (walked / dropped whole). */
  refreshDir(dir: string): void {
    const node = this.dirs.get(dir);
    if (!node) return;
    let entries: DirEntry[];
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
  private updateScriptsOf(dir: string, entries: DirEntry[]): void {
    if (path.basename(dir) !== SCRIPTS_DIR) return;
    const parent = path.dirname(dir);
    const skill = this.skills.get(parent);
    if (skill) this.skills.set(parent, withScripts(skill, parent, entries));
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
    let entries: DirEntry[];
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

  private walk(dir: string, id: string, depth: number, preread: DirEntry[] | undefined): void {
    let entries = preread;
    if (!entries) {
      try {
        this.recorder?.dir(dir);
        entries = this.prefetch?.entries(dir) ?? fs.readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        this.recorder?.volatile();
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
    entries: DirEntry[],
    known: Set<string> | undefined,
  ): void {
    const node: DirNode = { id, depth, children: [] };
    this.dirs.set(dir, node);
    let skillEntry: DirEntry | undefined;
    let scriptsEntries: DirEntry[] | undefined;
    let hasHooks = false;
    const subdirs: string[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name === SKILL_FILE) skillEntry = entry;
      else if (name === HOOKS_FILE) hasHooks = entry.isFile() || entry.isSymbolicLink();
      if (entry.isDirectory()) {
        if (name !== ".git" && name !== "node_modules") subdirs.push(name); // skipped; compared, not hashed
      } else if (entry.isSymbolicLink() && name !== SKILL_FILE && name !== HOOKS_FILE) {
        this.recorder?.volatile();
        const escaped = dirSymlinkEscape(dir, entry, this.realRoot);
        if (escaped) this.addWalkDiagnostic(dir, escaped);
      }
    }

    // A fresh walk skips the three lookups (4,111 folders in the 2,000-skill bench tree, docs/performance.md).
    const wasLoaded = !this.fresh && this.skills.delete(dir);
    if (!this.fresh) this.skippedByDir.delete(dir);
    if (skillEntry) {
      if (dir === this.root) {
        this.addWalkDiagnostic(dir, rootIsSkill(dir));
      } else if (this.skills.size >= this.maxSkills) {
        this.limitDiagnostic = skillLimit(this.root, this.maxSkills);
      } else {
        if (subdirs.includes(SCRIPTS_DIR)) {
          const scriptsDir = childPath(dir, SCRIPTS_DIR);
          scriptsEntries = this.prefetch?.entries(scriptsDir) ?? readEntries(scriptsDir, this.recorder);
        }
        const loaded = loadSkillRecord({
          dir,
          id,
          root: this.root,
          mode: this.mode,
          hasHooks,
          scriptsEntries: scriptsEntries ?? [],
          isRegular: skillEntry.isFile() || skillEntry.isSymbolicLink(),
          linkRoot: skillEntry.isSymbolicLink() ? this.realRoot : undefined,
          prefetched: skillEntry.isFile() ? this.prefetch?.skillFile(dir) : undefined,
          recorder: this.recorder,
        });
        if ("skipped" in loaded) this.skippedByDir.set(dir, loaded.skipped);
        else this.skills.set(dir, loaded.skill);
      }
    }
    if (!this.fresh && wasLoaded !== this.skills.has(dir)) this.orderedIds = null;

    if (subdirs.length > 0 && depth >= this.maxDepth) {
      this.addWalkDiagnostic(dir, depthLimit(dir, id, this.maxDepth));
      return;
    }
    if (subdirs.length > 1) sortCodePoints(subdirs);
    for (const name of subdirs) {
      node.children.push(name);
      const childDir = childPath(dir, name);
      if (known?.has(name) && this.dirs.has(childDir)) continue;
      const childId = id === "" ? name : `${id}/${name}`;
      const reuse = name === SCRIPTS_DIR ? scriptsEntries : undefined;
      this.walk(childDir, childId, depth + 1, reuse);
    }
    if (known && known.size > 0) {
      const present = new Set(node.children);
      for (const name of known) if (!present.has(name)) this.dropSubtree(childPath(dir, name));
    }
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
