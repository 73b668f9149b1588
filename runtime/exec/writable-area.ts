// Walks the writable area of a run: entries the sandbox uid may be granted, every `.git` to keep read-only, new `.git` a run left behind.
import { type Dirent, lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

export interface AreaEntry {
  path: string;
  dir: boolean;
}

export interface WritableScan {
  roots: string[];
  /** Folders and single-linked regular files (no symlinks, no git metadata, nothing `skip` excluded). */
  entries: AreaEntry[];
  /** Every entry named `.git` (folder, file or symlink), top-level or nested. */
  gitPaths: string[];
  /** The walk stopped at `maxEntries`: what lies beyond was not seen. */
  truncated: boolean;
}

export interface ScanOptions {
  /** Paths neither granted nor descended into (skillgate state, sensitive paths). */
  skip: (path: string) => boolean;
  maxEntries?: number;
}

const DEFAULT_MAX_ENTRIES = 200_000;

/** Breadth-first, never following symlinks, bounded. */
export function scanWritableArea(roots: string[], options: ScanOptions): WritableScan {
  const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const scan: WritableScan = { roots, entries: [], gitPaths: [], truncated: false };
  const queue: string[] = [];
  for (const root of roots) {
    const info = lstatSync(root, { throwIfNoEntry: false });
    if (info?.isDirectory()) {
      scan.entries.push({ path: root, dir: true });
      queue.push(root);
    }
  }
  let seen = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    let children: Dirent[];
    try {
      children = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const child of children) {
      if (++seen > max) {
        scan.truncated = true;
        return scan;
      }
      const path = join(dir, child.name);
      if (child.name === ".git") {
        scan.gitPaths.push(path);
        continue;
      }
      // setfacl reads one path per line; a name with a newline could smuggle a second path.
      if (child.name.includes("\n") || options.skip(path)) continue;
      if (child.isDirectory()) {
        scan.entries.push({ path, dir: true });
        queue.push(path);
      } else if (child.isFile()) {
        const info = lstatSync(path, { throwIfNoEntry: false });
        if (info?.isFile() && info.nlink === 1) scan.entries.push({ path, dir: false });
      }
    }
  }
  return scan;
}

/** Every `.git` under `roots` that is not in `before`: a run must not plant git metadata for the host's next git command. */
export function newGitPaths(
  roots: string[],
  before: readonly string[],
  skip: (path: string) => boolean,
): string[] {
  const known = new Set(before);
  return scanWritableArea(roots, { skip }).gitPaths.filter((path) => !known.has(path));
}

/** Removes what `newGitPaths` found; returns the paths it could not remove. */
export function removePlanted(paths: string[]): string[] {
  const left: string[] = [];
  for (const path of paths) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      left.push(path);
    }
  }
  return left;
}
