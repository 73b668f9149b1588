// Temp roots for tests: a fresh folder with cleanup, and the sweep that removes what a test file left behind.
import { chmodSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempRoot {
  /** The temp folder (realpath'd when asked). */
  dir: string;
  /** A path inside the temp folder. */
  path(...parts: string[]): string;
  /** Removes the folder, read-only skill copies included. */
  cleanup(): void;
}

/**
 * A fresh folder under the OS temp dir (or `parent`, e.g. /tmp for folders other OS users must reach); `prefix`
 * names the suite so leftovers are traceable.
 */
export function tempRoot(prefix: string, options: { realpath?: boolean; parent?: string } = {}): TempRoot {
  const made = mkdtempSync(join(options.parent ?? tmpdir(), prefix));
  const dir = options.realpath ? realpathSync(made) : made;
  leftRoots.add(dir);
  const cleanup = (): void => {
    removeTree(dir);
    leftRoots.delete(dir);
  };
  return { dir, path: (...parts) => join(dir, ...parts), cleanup };
}

/** Temp roots this test file made and has not cleaned up (a file's module state is its own). */
const leftRoots = new Set<string>();

/**
 * Removes the temp roots the current test file left, after its own hooks (test/support/temp-cleanup.ts): without
 * it a full suite run left ~100 folders in the temp dir. Returns the ones that could not be removed, with why (a
 * folder the test's user may not change), so the caller can say so.
 */
export function removeLeftTempRoots(): string[] {
  const kept: string[] = [];
  for (const dir of leftRoots) {
    try {
      removeTree(dir);
    } catch (error) {
      kept.push(`${dir}: ${(error as Error).message}`);
    }
  }
  leftRoots.clear();
  return kept;
}

/**
 * Makes the folders writable again (init marks the copied pack read-only), then removes the tree. Files keep
 * their modes: unlinking needs only a writable folder, and a file may be a hard link into the checkout (the
 * authority tests link node_modules), whose executables must stay executable.
 */
export function removeTree(path: string): void {
  const walk = (current: string) => {
    const info = lstatSync(current, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return;
    chmodSync(current, 0o755);
    for (const entry of readdirSync(current)) walk(join(current, entry));
  };
  walk(path);
  rmSync(path, { recursive: true, force: true });
}
