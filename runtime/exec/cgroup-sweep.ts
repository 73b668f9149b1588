// Run cgroups left behind by a process that died before cleaning up: swept when found empty, old and not ours.
import { existsSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Run folders this process made and has not released: never swept, however long a loaded run waits to start in one. */
export const ownLive = new Set<string>();

/** Removes empty run folders left by a process that died before cleaning up (rmdir fails on busy ones). */
export function sweepStale(parent: string): void {
  try {
    for (const name of readdirSync(parent)) {
      const dir = join(parent, name);
      // Only old folders: a young empty one may belong to another process's run that is about to add its process.
      if (name.startsWith("sg-") && !ownLive.has(dir) && statSync(dir).mtimeMs < Date.now() - 60_000)
        rmdirQuiet(dir);
    }
  } catch {
    // nothing to sweep
  }
}

/** rmdir that says whether the folder is gone (a busy cgroup stays). */
export function rmdirQuiet(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return !existsSync(dir);
  }
}
