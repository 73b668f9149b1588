// A live skill catalog: scans once, then each snapshot() re-reads only the folders that changed.
import fs from "node:fs";
import { SkillTree } from "./tree.js";
import type { ScanOptions } from "./tree-files.js";
import type { CatalogSnapshot, SkillRecord } from "./types.js";
import { type FolderWatcher, startFolderWatcher } from "./watch-worker.js";

export interface CatalogOptions extends ScanOptions {
  /**
   * "watch" (default): folder watches on a helper thread, so an unchanged snapshot costs one fence
   * round trip and a change re-reads only its folder. "rescan": walk everything on every snapshot
   * (also the fallback when watching is impossible, e.g. the inotify watch limit is reached).
   */
  strategy?: "watch" | "rescan";
}

export interface Catalog {
  /**
   * The current catalog; re-reads what changed since the last call (synchronously, never stale). With `since`
   * (a `fenceMark()` taken when a tool call arrived) it holds every change made before that mark, and calls
   * that arrived together share one check of the watcher (skills/watch-worker.ts).
   */
  snapshot(since?: number): CatalogSnapshot;
  get(id: string): SkillRecord | undefined;
  /** The strategy in effect now: "watch", or "rescan" when asked for or after the watcher broke. */
  activeStrategy(): "watch" | "rescan";
  /** Stops the watcher thread (the catalog then rescans on every snapshot). */
  close(): void;
}

export function createCatalog(root: string, options: CatalogOptions = {}): Catalog {
  const tree = new SkillTree(root, options);
  let watcher: FolderWatcher | null = null;
  let generation = 1;
  let current!: CatalogSnapshot;
  let published = false;
  let byId = new Map<string, SkillRecord>();
  let signature = "";

  /** `compare`: only move the generation when the content differs (full rescans); a watched refresh
   * always moves it, as comparing 2,000 skills would cost more than the refresh itself. */
  const publish = (compare: boolean): void => {
    const next = tree.snapshot(generation);
    if (compare) {
      const nextSignature = signatureOf(next);
      if (published && nextSignature === signature) return;
      signature = nextSignature;
    }
    if (published) generation += 1;
    published = true;
    current = { ...next, generation };
    byId = new Map(current.skills.map((skill) => [skill.id, skill]));
  };

  /** Watches every walked folder not yet watched, then re-reads those folders: a change that landed
   * between our read and the watch being in place is caught by the re-read. Repeats for folders found. */
  const watchNew = (watched: Set<string>): boolean => {
    if (!watcher) return false;
    for (let round = 0; round < 100; round++) {
      const fresh = tree.walkedDirs().filter((dir) => !watched.has(dir));
      const gone = [...watched].filter((dir) => !tree.dirs.has(dir));
      for (const dir of gone) watched.delete(dir);
      if (fresh.length === 0) {
        if (gone.length > 0) watcher.watch([], gone);
        return true;
      }
      if (!watcher.watch(fresh, gone)) return false;
      for (const dir of fresh) watched.add(dir);
      for (const dir of fresh) if (tree.dirs.has(dir)) tree.refreshDir(dir);
    }
    return true;
  };

  const watched = new Set<string>();
  const rescan = (): void => {
    tree.scanAll();
    publish(true);
  };
  const dropWatcher = (): void => {
    watcher?.close();
    watcher = null;
  };

  const wantWatch = (options.strategy ?? "watch") === "watch";
  let closed = false;
  /** Starts watching once the root exists (it may be created after the catalog). */
  const startWatching = (): void => {
    if (!wantWatch || closed || tree.rootMissing) return;
    watched.clear();
    watcher = startFolderWatcher();
    if (watcher && !watchNew(watched)) dropWatcher();
  };

  tree.scanAll();
  startWatching();
  publish(true);

  const snapshot = (since?: number): CatalogSnapshot => {
    if (!watcher) {
      const wasMissing = tree.rootMissing !== null;
      if (wasMissing && !fs.existsSync(root)) return current;
      rescan();
      if (wasMissing) startWatching();
      return current;
    }
    const changes = watcher.changes(since);
    if (changes === null || changes.replaced.has(tree.root)) {
      dropWatcher();
      rescan();
      startWatching();
      return current;
    }
    if (changes.changed.size === 0 && changes.replaced.size === 0) return current;
    const shallowFirst = (a: string, b: string) => a.length - b.length;
    // A replaced folder's watch (and those below it) is dead: forget them so watchNew watches again.
    const unwatch: string[] = [];
    for (const dir of [...changes.replaced].sort(shallowFirst)) {
      const prefix = `${dir}/`;
      for (const path of watched) {
        if (path === dir || path.startsWith(prefix)) {
          watched.delete(path);
          unwatch.push(path);
        }
      }
      tree.rewalkDir(dir);
    }
    if (unwatch.length > 0) watcher.watch([], unwatch);
    // Shallow folders first: a refreshed parent may drop a changed child, which is then skipped.
    for (const dir of [...changes.changed].sort(shallowFirst)) {
      if (tree.dirs.has(dir)) tree.refreshDir(dir);
    }
    if (tree.rootMissing) {
      dropWatcher();
    } else if (!watchNew(watched)) {
      dropWatcher();
      rescan();
      return current;
    }
    publish(false);
    return current;
  };

  return {
    snapshot,
    get(id) {
      snapshot();
      return byId.get(id);
    },
    activeStrategy() {
      return watcher ? "watch" : "rescan";
    },
    close() {
      closed = true;
      dropWatcher();
    },
  };
}

/** Cheap content identity of a snapshot so `generation` moves only when the content does. */
function signatureOf(snapshot: CatalogSnapshot): string {
  const parts: string[] = [];
  for (const skill of snapshot.skills) {
    parts.push(
      skill.id,
      skill.name,
      skill.description,
      skill.body,
      skill.scripts.join("/"),
      String(skill.hasHooks),
    );
    parts.push(JSON.stringify(skill.frontmatter), JSON.stringify(skill.diagnostics));
  }
  for (const diagnostic of snapshot.skipped) parts.push(diagnostic.path, diagnostic.code, diagnostic.message);
  return parts.join("\u0000");
}
