// The one tree walker: never follows symlinks, bounded (entries, depth), skips by predicate, depth-first sorted or breadth-first.
import type { Dirent, Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";

// Hand-written rather than fdir / @nodelib/fs.walk: neither reports an unreadable folder or a depth-limited one
// per folder, keeps a sorted depth-first order with an async visitor awaited in between, nor walks by descriptor.

export type EntryKind = "file" | "directory" | "symlink" | "other";

export interface WalkEntry {
  name: string;
  /** The folder listed + "/" + name (not normalised). */
  path: string;
  /** "/"-separated path below its root. */
  rel: string;
  /** Level below the root: 1 for the root's own entries. */
  depth: number;
  /** From the listing's Dirent or from lstat; undefined when the listing gave names only and nothing was stat'ed. */
  kind: EntryKind | undefined;
  /** lstat of the entry, when `stat` asked for it. */
  stats: Stats | undefined;
}

/** The two calls the walker makes; the default is node:fs (Dirents, so no stat per entry). */
export interface WalkFs {
  /** Names or Dirents of a folder (a Dirent of a symlink is never a folder). */
  readdir(path: string): Promise<Array<string | Dirent>>;
  lstat(path: string): Promise<Stats>;
}

export const nodeWalkFs: WalkFs = {
  readdir: (path) => readdir(path, { withFileTypes: true }),
  lstat: (path) => lstat(path),
};

/** What a visit says about a folder entry: `false` = do not enter; `into` = list this path instead; `after` runs once the entry is done. */
export type VisitResult = undefined | false | { into?: string; after?: () => void | Promise<void> };

export interface WalkOptions {
  fs?: WalkFs;
  /** "depth-first" (default): one folder at a time, each entry visited (awaited) before the next. "breadth-first": the folders of one level are listed together. */
  order?: "depth-first" | "breadth-first";
  /** Name order within a folder; default: by UTF-16 code unit (Array#sort); null: as listed. */
  compare?: ((a: string, b: string) => number) | null;
  /** Deepest folder level listed (root = 0); a deeper folder goes to onDepthLimit instead. Default: no limit. */
  maxDepth?: number;
  /** Stop once more than this many entries were listed (skipped ones count): `truncated`. Default: no limit. */
  maxEntries?: number;
  /** lstat every entry ("all"), regular files only ("files", in parallel per folder when breadth-first), or none (default). */
  stat?: "none" | "files" | "all";
  /** Entries neither visited nor entered (checked before any stat). */
  skip?: (entry: WalkEntry) => boolean;
  onDepthLimit?: (entry: WalkEntry) => void | Promise<void>;
  /** A folder that cannot be listed; default: the error is thrown. */
  onUnreadable?: (dir: string, rel: string, error: unknown) => void | Promise<void>;
  /** An entry whose lstat failed; default: it is left out silently. */
  onStatError?: (entry: WalkEntry, error: unknown) => void | Promise<void>;
}

export interface WalkResult {
  /** Entries listed (skipped ones too), at most maxEntries. */
  seen: number;
  truncated: boolean;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a visit with no return statement enters folders.
export type Visitor = (entry: WalkEntry) => VisitResult | void | Promise<VisitResult | void>;

const byCodeUnit = undefined;

function kindOfDirent(dirent: Dirent | Stats): EntryKind {
  if (dirent.isFile()) return "file";
  if (dirent.isDirectory()) return "directory";
  if (dirent.isSymbolicLink()) return "symlink";
  return "other";
}

function childPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/** Walks `roots` (folders; each at level 0), calling `visit` for every entry not skipped. */
export async function walkTree(
  roots: string | readonly string[],
  options: WalkOptions,
  visit: Visitor,
): Promise<WalkResult> {
  const fs = options.fs ?? nodeWalkFs;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const stat = options.stat ?? "none";
  const compare = options.compare === undefined ? byCodeUnit : options.compare;
  const result: WalkResult = { seen: 0, truncated: false };

  const list = async (dir: string, rel: string, depth: number): Promise<WalkEntry[] | null> => {
    let listed: Array<string | Dirent>;
    try {
      listed = await fs.readdir(dir);
    } catch (error) {
      if (!options.onUnreadable) throw error;
      await options.onUnreadable(dir, rel, error);
      return null;
    }
    const entries: WalkEntry[] = new Array(listed.length);
    for (let index = 0; index < listed.length; index++) {
      const item = listed[index] as string | Dirent;
      const name = typeof item === "string" ? item : item.name;
      entries[index] = {
        name,
        path: childPath(dir, name),
        rel: rel === "" ? name : `${rel}/${name}`,
        depth,
        kind: typeof item === "string" ? undefined : kindOfDirent(item),
        stats: undefined,
      };
    }
    if (compare !== null) entries.sort(compare ? (a, b) => compare(a.name, b.name) : byName);
    return entries;
  };

  /** Counts one listed entry; false once the bound is passed. */
  const count = (): boolean => {
    if (result.truncated) return false;
    if (++result.seen > maxEntries) {
      result.seen = maxEntries;
      result.truncated = true;
      return false;
    }
    return true;
  };
  const wantsStat = (entry: WalkEntry): boolean =>
    stat === "all" || (stat === "files" && entry.kind === "file");

  const statOf = (entry: WalkEntry): Promise<boolean> =>
    fs.lstat(entry.path).then(
      (stats) => {
        entry.stats = stats;
        // A Dirent's kind stays: a file swapped for a folder after the listing is not entered.
        entry.kind ??= kindOfDirent(stats);
        return true;
      },
      async (error) => {
        await options.onStatError?.(entry, error);
        return false;
      },
    );

  type Then = (entry: WalkEntry, into: string) => void | Promise<void>;
  // Synchronous when the visit is: the breadth-first walk then lists one folder without yielding, as before.
  const finish = (entry: WalkEntry, outcome: VisitResult | undefined, then: Then): void | Promise<void> => {
    if (outcome === false) return;
    const into = outcome?.into ?? (entry.kind === "directory" ? entry.path : undefined);
    const after = outcome?.after;
    if (into === undefined) return after?.();
    if (!after) return entry.depth > maxDepth ? options.onDepthLimit?.(entry) : then(entry, into);
    return (async () => {
      try {
        await (entry.depth > maxDepth ? options.onDepthLimit?.(entry) : then(entry, into));
      } finally {
        await after();
      }
    })();
  };
  const enter = (entry: WalkEntry, then: Then): void | Promise<void> => {
    const outcome = visit(entry);
    return outcome instanceof Promise
      ? outcome.then((settled) => finish(entry, settled ?? undefined, then))
      : finish(entry, outcome ?? undefined, then);
  };

  if (options.order === "breadth-first") {
    let level = (typeof roots === "string" ? [roots] : roots).map((path) => ({ path, rel: "" }));
    for (let depth = 1; level.length > 0 && !result.truncated; depth++) {
      const next: { path: string; rel: string }[] = [];
      const push: Then = (entry, into) => void next.push({ path: into, rel: entry.rel });
      const listOne = async (dir: { path: string; rel: string }): Promise<void> => {
        const entries = await list(dir.path, dir.rel, depth);
        if (!entries) return;
        const files: WalkEntry[] = [];
        for (const entry of entries) {
          if (!count()) return;
          if (options.skip?.(entry)) continue;
          if (wantsStat(entry)) files.push(entry);
          else {
            const step = enter(entry, push);
            if (step) await step;
          }
        }
        if (files.length === 0) return;
        const stated = await Promise.all(files.map(statOf));
        for (let index = 0; index < files.length; index++) {
          const step = stated[index] ? enter(files[index] as WalkEntry, push) : undefined;
          if (step) await step;
        }
      };
      await Promise.all(level.map(listOne));
      level = next;
    }
    return result;
  }

  const walkDir = async (dir: string, rel: string, depth: number): Promise<void> => {
    const entries = await list(dir, rel, depth);
    if (!entries) return;
    for (const entry of entries) {
      if (!count()) return;
      if (options.skip?.(entry)) continue;
      if (wantsStat(entry) && !(await statOf(entry))) continue;
      const step = enter(entry, descend);
      if (step) await step;
    }
  };
  const descend: Then = (entry, into) => walkDir(into, entry.rel, entry.depth + 1);
  for (const root of typeof roots === "string" ? [roots] : roots) {
    if (maxDepth < 0) {
      const name = root.slice(root.lastIndexOf("/") + 1);
      await options.onDepthLimit?.({
        name,
        path: root,
        rel: "",
        depth: 0,
        kind: "directory",
        stats: undefined,
      });
    } else await walkDir(root, "", 1);
    if (result.truncated) break;
  }
  return result;
}

function byName(a: WalkEntry, b: WalkEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
