// Walks the writable area of a run: entries the sandbox uid may be granted, every `.git` to keep read-only, its size for the budget.
import { lstat, rm } from "node:fs/promises";
import { join, normalize } from "node:path";
import { walkTree } from "../walk/index.js";
import { isUnder } from "./bwrap.js";

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
  /** Every directory entry seen below the roots (links, git metadata and skipped ones too): inodes in use. */
  seen: number;
  /** Allocated bytes of the regular files seen (st_blocks, so sparse files count what they use). */
  bytes: number;
  /** The walk stopped at `maxEntries`: what lies beyond was not seen. */
  truncated: boolean;
}

export interface ScanOptions {
  /** Paths neither granted nor descended into (skillgate state, sensitive paths). */
  skip: (path: string) => boolean;
  maxEntries?: number;
}

export const DEFAULT_MAX_ENTRIES = 200_000;

/** What a run's walk leaves out: skillgate's state under each root and the sensitive paths (masked inside). */
export function areaSkip(
  roots: readonly string[],
  sensitivePaths: readonly string[],
): (path: string) => boolean {
  return (path) =>
    roots.some((root) => path === join(root, ".ucagent")) ||
    sensitivePaths.some((sensitive) => isUnder(path, sensitive));
}

/** Breadth-first, never following symlinks, bounded; the folders of one depth are read together. */
export async function scanWritableArea(roots: string[], options: ScanOptions): Promise<WritableScan> {
  const scan: WritableScan = { roots, entries: [], gitPaths: [], seen: 0, bytes: 0, truncated: false };
  const level: string[] = [];
  for (const root of roots) {
    const info = await lstat(root).catch(() => null);
    if (info?.isDirectory()) {
      scan.entries.push({ path: root, dir: true });
      level.push(normalize(root)); // child paths then equal join(root, name), as `skip` compares them
    }
  }
  const walked = await walkTree(
    level,
    {
      order: "breadth-first",
      compare: null,
      maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      stat: "files",
      skip: (entry) => {
        if (entry.name === ".git") {
          scan.gitPaths.push(entry.path);
          return true;
        }
        // setfacl reads one path per line; a name with a newline could smuggle a second path.
        return entry.name.includes("\n") || options.skip(entry.path);
      },
      onUnreadable: () => undefined,
    },
    (entry) => {
      const info = entry.stats;
      if (info) {
        if (!info.isFile()) return false;
        scan.bytes += info.blocks * 512;
        if (info.nlink === 1) scan.entries.push({ path: entry.path, dir: false });
      } else if (entry.kind === "directory") scan.entries.push({ path: entry.path, dir: true });
    },
  );
  scan.seen = walked.seen;
  scan.truncated = walked.truncated;
  return scan;
}

/** Every `.git` under `roots` that is not in `before`: a run must not plant git metadata for the host's next git command. */
export async function newGitPaths(
  roots: string[],
  before: readonly string[],
  skip: (path: string) => boolean,
  /** A complete walk made after the run over (at least) `roots` with the same skip, reused instead of a new one. */
  after?: WritableScan,
): Promise<string[]> {
  const known = new Set(before);
  const scan = after && !after.truncated ? after : await scanWritableArea(roots, { skip });
  return scan.gitPaths.filter((path) => !known.has(path) && roots.some((root) => isUnder(path, root)));
}

/** Removes what `newGitPaths` found; returns the paths it could not remove. */
export async function removePlanted(paths: string[]): Promise<string[]> {
  const left: string[] = [];
  for (const path of paths) {
    try {
      await rm(path, { recursive: true, force: true });
    } catch {
      left.push(path);
    }
  }
  return left;
}
