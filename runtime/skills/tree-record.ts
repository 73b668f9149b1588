// What a scan's result depends on (each folder listed, each file read or sized), as stat stamps an index can re-check.
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

/**
 * Changes closer than this to the scan's start may share a timestamp tick with a later change we would then
 * miss (ctime is coarse), so such a scan is not indexed; the next one, once the tree has settled, is.
 */
export const SETTLE_MS = 2000;

/** Numbers stamped per path: dev, inode, mode, size, mtime, ctime (any write, rename, chmod or replacement moves one). */
export const STAMP_FIELDS = 6;

/**
 * Writes the stamp of `path` at `stamps[at * STAMP_FIELDS…]` (numbers, never formatted: 30,000 stats must stay
 * cheap); returns its newest time, or null when it cannot be stat'ed.
 */
export function stampInto(stamps: Float64Array, at: number, path: string): number | null {
  const stat = fs.statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  const base = at * STAMP_FIELDS;
  stamps[base] = stat.dev;
  stamps[base + 1] = stat.ino;
  stamps[base + 2] = stat.mode;
  stamps[base + 3] = stat.size;
  stamps[base + 4] = stat.mtimeMs;
  stamps[base + 5] = stat.ctimeMs;
  return Math.max(stat.mtimeMs, stat.ctimeMs);
}

export class KeyRecorder implements ScanRecorder {
  /** Every path listed, read or sized, in walk order, with its stamp at that moment. */
  readonly paths: string[] = [];
  private stampBuffer = new Float64Array(STAMP_FIELDS * 256);
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

  /** The stamps of `paths`, in order. */
  stamps(): Float64Array {
    return this.stampBuffer.subarray(0, this.paths.length * STAMP_FIELDS);
  }

  private add(path: string): void {
    if (this.unindexable) return;
    const at = this.paths.length;
    if ((at + 1) * STAMP_FIELDS > this.stampBuffer.length) {
      const grown = new Float64Array(this.stampBuffer.length * 2);
      grown.set(this.stampBuffer);
      this.stampBuffer = grown;
    }
    let newest: number | null;
    try {
      newest = stampInto(this.stampBuffer, at, path);
    } catch {
      newest = null;
    }
    if (newest === null) {
      this.unindexable = true;
      return;
    }
    this.newest = Math.max(this.newest, newest);
    this.paths.push(path);
  }
}
