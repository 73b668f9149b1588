// What a scan's result depends on (each folder listed, each file read or sized), as stat keys an index can re-check.
import fs from "node:fs";

/** Told by the walker before each listing or read, so a recorded key is never newer than what was read. */
export interface ScanRecorder {
  /** The skill root's real path (a moved symlink target changes the tree). */
  root(realRoot: string): void;
  /** A folder about to be listed. */
  dir(path: string): void;
  /** A file about to be read or sized. */
  file(path: string): void;
  /** The result depends on something a stat key cannot vouch for (a symlink followed, an unreadable folder). */
  volatile(): void;
}

/** [path, dev, ino, mode, size, mtimeMs, ctimeMs]: any write, rename, chmod or replacement changes one of them. */
export type StatKey = [string, number, number, number, number, number, number];

/**
 * Changes closer than this to the scan's start may share a timestamp tick with a later change we would then
 * miss (ctime is coarse), so such a scan is not indexed; the next one, once the tree has settled, is.
 */
export const SETTLE_MS = 2000;

export function statKey(path: string): StatKey | null {
  const stat = fs.statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  return [path, stat.dev, stat.ino, stat.mode, stat.size, stat.mtimeMs, stat.ctimeMs];
}

export function sameKey(a: StatKey, b: StatKey): boolean {
  for (let index = 1; index < 7; index++) if (a[index] !== b[index]) return false;
  return true;
}

export class KeyRecorder implements ScanRecorder {
  readonly keys: StatKey[] = [];
  realRoot = "";
  private unindexable = false;
  private newest = 0;
  private readonly started: number;

  /** `started`: when the scan began, in ms since the epoch (the clock of file timestamps). */
  constructor(started: number) {
    this.started = started;
  }

  root(realRoot: string): void {
    this.realRoot = realRoot;
  }

  dir(path: string): void {
    this.add(path);
  }

  file(path: string): void {
    this.add(path);
  }

  volatile(): void {
    this.unindexable = true;
  }

  /** True when every key was taken on a tree that had settled before the scan began. */
  indexable(): boolean {
    return !this.unindexable && this.realRoot !== "" && this.newest < this.started - SETTLE_MS;
  }

  private add(path: string): void {
    if (this.unindexable) return;
    let key: StatKey | null;
    try {
      key = statKey(path);
    } catch {
      key = null;
    }
    if (!key) {
      this.unindexable = true;
      return;
    }
    this.newest = Math.max(this.newest, key[5], key[6]);
    this.keys.push(key);
  }
}
