// A per-run pids cgroup: caps processes+threads for root (whom RLIMIT_NPROC ignores) and finds every process to kill.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface PidsCgroup {
  dir: string;
  /** Moves a process (and its threads) into the cgroup. */
  add(pid: number): void;
  /** Live member processes. */
  members(): number[];
  /** SIGKILLs every member until none is left (bounded), then removes the folder. */
  destroy(): void;
}

function writeFile(file: string, value: string): boolean {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

/** The folder under which run cgroups are made: cgroup v1 pids hierarchy, or the v2 root with pids enabled. */
function pidsHierarchyParent(root: string): string | null {
  const v1 = join(root, "pids");
  if (existsSync(join(v1, "cgroup.procs"))) return join(v1, "skillgate");
  try {
    const controllers = readFileSync(join(root, "cgroup.controllers"), "utf8");
    if (!controllers.split(/\s+/).includes("pids")) return null;
    const parent = join(root, "skillgate");
    mkdirSync(parent, { recursive: true });
    writeFile(join(root, "cgroup.subtree_control"), "+pids");
    writeFile(join(parent, "cgroup.subtree_control"), "+pids");
    return parent;
  } catch {
    return null;
  }
}

/** Makes a pids cgroup limited to `maxPids` tasks, or returns the reason it cannot (not root, no controller). */
export function createPidsCgroup(
  runId: string,
  maxPids: number,
  root = "/sys/fs/cgroup",
): { cgroup: PidsCgroup } | { reason: string } {
  if (process.getuid?.() !== 0) return { reason: "not running as root" };
  const parent = pidsHierarchyParent(root);
  if (parent === null) return { reason: `no pids cgroup controller under ${root}` };
  sweepStale(parent);
  const dir = join(parent, runId);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return { reason: `cannot create ${dir}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!writeFile(join(dir, "pids.max"), String(maxPids))) {
    rmdirQuiet(dir);
    return { reason: `cannot write ${join(dir, "pids.max")}` };
  }
  const members = (): number[] => {
    try {
      return readFileSync(join(dir, "cgroup.procs"), "utf8")
        .split("\n")
        .filter((line) => line.length > 0)
        .map(Number);
    } catch {
      return [];
    }
  };
  return {
    cgroup: {
      dir,
      add(pid: number): void {
        writeFileSync(join(dir, "cgroup.procs"), String(pid));
      },
      members,
      destroy(): void {
        for (let round = 0; round < 200; round++) {
          const pids = members();
          if (pids.length === 0) break;
          // A fork bomb refills the group while we kill; freezing is not available everywhere, so keep killing.
          for (const pid of pids) {
            try {
              process.kill(pid, "SIGKILL");
            } catch {
              // already gone
            }
          }
        }
        removeWhenEmpty(dir, 50);
      },
    },
  };
}

/** Killed orphans are reaped by init a little later; until then the folder is busy, so retry in the background. */
function removeWhenEmpty(dir: string, attemptsLeft: number): void {
  if (rmdirQuiet(dir) || attemptsLeft <= 0) return;
  setTimeout(() => removeWhenEmpty(dir, attemptsLeft - 1), 100).unref();
}

/** Removes empty run folders left by a process that died before cleaning up (rmdir fails on busy ones). */
function sweepStale(parent: string): void {
  try {
    for (const name of readdirSync(parent)) {
      const dir = join(parent, name);
      // Only old folders: a young empty one may belong to a concurrent run that is about to add its process.
      if (name.startsWith("sg-") && statSync(dir).mtimeMs < Date.now() - 60_000) rmdirQuiet(dir);
    }
  } catch {
    // nothing to sweep
  }
}

function rmdirQuiet(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return !existsSync(dir);
  }
}
