// A per-run cgroup (root only): pids caps processes+threads (RLIMIT_NPROC ignores root) and finds every process to kill; memory counts all memory.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile as writeFileAsync } from "node:fs/promises";
import { join } from "node:path";
import { nativeModule } from "../contracts/index.js";
import {
  cgroupMembers,
  killCgroupMembers,
  ownLive,
  removeWhenEmpty,
  rmdirQuiet,
  sweepStale,
} from "./cgroup-sweep.js";

export interface PidsCgroup {
  dir: string;
  /** The run's memory cgroup (v1: its own hierarchy; v2: the same folder), or null when none could be made. */
  memoryDir: string | null;
  /** Whether the kernel's OOM killer acted inside the memory cgroup. */
  oomKilled(): boolean;
  /** The kernel's high-water mark of the memory cgroup in bytes (every page, not sampled), or null without one. */
  peakBytes(): number | null;
  /** Moves a process into the memory cgroup only (after a spawn born inside the pids cgroup). */
  addMemory(pid: number): void;
  /** Moves a process (and its threads) into the cgroup. */
  add(pid: number): void;
  /** add() off the main thread (a move waits for an RCU grace period, ~10 ms on v1); rejects where add() throws. */
  move(pid: number): Promise<void>;
  /** Live member processes. */
  members(): number[];
  /**
   * Runs `start` (a synchronous spawn) with the calling thread inside the group so the child is born
   * in it: no window in which a fast fork escapes. Only cgroup v1 can move one thread (`tasks`);
   * elsewhere the child is added right after the spawn. Returns true when born inside.
   */
  bornInside(start: () => void): boolean;
  /** Forbids any further fork in the group (pids.max = 0), so killing converges even against a fork bomb. */
  seal(): void;
  /** SIGKILLs every member until none is left (bounded), then removes the folder. */
  destroy(): void;
  /**
   * destroy() without blocking the thread: forks are stopped and every member is killed now; the folders go as
   * soon as the kernel lets go of them (a killed process stays a member until it is reaped), retried on short
   * timers that keep the process alive for at most ~150 ms, or `patienceMs` when longer (a process about to exit
   * has no later timers). Resolves when removed or handed to the slow retries.
   */
  release(patienceMs?: number): Promise<void>;
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

/**
 * The memory cgroup of a run limited to `bytes` with swap off: counts page cache, tmpfs and memfd pages too,
 * which the RSS poll cannot see. v1: the memory hierarchy; v2: `dir` itself (memory.max, memory.swap.max).
 */
function makeMemoryCgroup(root: string, runId: string, pidsDir: string, bytes: number): string | null {
  const v1 = join(root, "memory");
  if (existsSync(join(v1, "memory.limit_in_bytes"))) {
    const dir = join(v1, "skillgate", runId);
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      return null;
    }
    if (!writeFile(join(dir, "memory.limit_in_bytes"), String(bytes))) {
      rmdirQuiet(dir);
      return null;
    }
    // memsw = memory + swap: equal to the memory limit means no swap at all.
    if (existsSync(join(dir, "memory.memsw.limit_in_bytes")))
      writeFile(join(dir, "memory.memsw.limit_in_bytes"), String(bytes));
    writeFile(join(dir, "memory.swappiness"), "0");
    return dir;
  }
  if (existsSync(join(pidsDir, "memory.max"))) {
    if (!writeFile(join(pidsDir, "memory.max"), String(bytes))) return null;
    writeFile(join(pidsDir, "memory.swap.max"), "0");
    return pidsDir;
  }
  return null;
}

function peakUsage(memoryDir: string): number | null {
  for (const file of ["memory.max_usage_in_bytes", "memory.peak"]) {
    try {
      const value = Number(readFileSync(join(memoryDir, file), "utf8").trim());
      if (Number.isFinite(value) && value > 0) return value;
    } catch {
      // not this version (memory.peak needs Linux 5.19)
    }
  }
  return null;
}

function oomKillCount(memoryDir: string): number {
  for (const file of ["memory.events", "memory.oom_control"]) {
    try {
      const match = /^oom_kill (\d+)$/m.exec(readFileSync(join(memoryDir, file), "utf8"));
      if (match) return Number(match[1]);
    } catch {
      // not this version
    }
  }
  return 0;
}

/** Makes a pids cgroup limited to `maxPids` tasks, or returns the reason it cannot (not root, no controller). */
export function createPidsCgroup(
  runId: string,
  maxPids: number,
  root = "/sys/fs/cgroup",
  memoryBytes?: number,
): { cgroup: PidsCgroup } | { reason: string } {
  if (process.getuid?.() !== 0) return { reason: "not running as root" };
  const parent = pidsHierarchyParent(root);
  if (parent === null) return { reason: `no pids cgroup controller under ${root}` };
  sweepStale(parent);
  sweepStale(join(root, "memory", "skillgate"));
  const dir = join(parent, runId);
  try {
    mkdirSync(dir, { recursive: true });
    ownLive.add(dir);
  } catch (error) {
    return { reason: `cannot create ${dir}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!writeFile(join(dir, "pids.max"), String(maxPids))) {
    rmdirQuiet(dir);
    return { reason: `cannot write ${join(dir, "pids.max")}` };
  }
  const memoryDir = memoryBytes === undefined ? null : makeMemoryCgroup(root, runId, dir, memoryBytes);
  const separateMemory = memoryDir !== null && memoryDir !== dir;
  if (separateMemory) ownLive.add(memoryDir);
  primeMoves(root);
  const forget = (): void => {
    ownLive.delete(dir);
    if (memoryDir !== null) ownLive.delete(memoryDir);
  };
  const members = (): number[] => cgroupMembers(dir);
  const killMembers = (): boolean => killCgroupMembers(dir);
  return {
    cgroup: {
      dir,
      memoryDir,
      oomKilled: () => memoryDir !== null && oomKillCount(memoryDir) > 0,
      peakBytes: () => (memoryDir === null ? null : peakUsage(memoryDir)),
      addMemory(pid: number): void {
        if (separateMemory) writeFile(join(memoryDir, "cgroup.procs"), String(pid));
      },
      add(pid: number): void {
        writeFileSync(join(dir, "cgroup.procs"), String(pid));
        if (separateMemory) writeFile(join(memoryDir, "cgroup.procs"), String(pid));
      },
      async move(pid: number): Promise<void> {
        await writeFileAsync(join(dir, "cgroup.procs"), String(pid));
        if (separateMemory)
          await writeFileAsync(join(memoryDir, "cgroup.procs"), String(pid)).catch(() => undefined);
      },
      members,
      bornInside(start: () => void): boolean {
        const home = ownThreadCgroup(root);
        if (home === null || !writeFile(join(dir, "tasks"), String(process.pid))) {
          start();
          return false;
        }
        try {
          start();
        } finally {
          writeFileSync(join(home, "tasks"), String(process.pid));
        }
        return true;
      },
      seal(): void {
        writeFile(join(dir, "pids.max"), "0");
      },
      destroy(): void {
        forget();
        writeFile(join(dir, "pids.max"), "0");
        for (let round = 0; round < 200; round++) if (!killMembers()) break;
        removeWhenEmpty(dir, 50);
        if (separateMemory) removeWhenEmpty(memoryDir, 50);
      },
      release(patienceMs = 0): Promise<void> {
        forget();
        writeFile(join(dir, "pids.max"), "0");
        const removed = (): boolean =>
          !killMembers() && rmdirQuiet(dir) && (!separateMemory || rmdirQuiet(memoryDir));
        if (removed()) return Promise.resolve();
        const deadline = Date.now() + patienceMs;
        return new Promise((resolve) => {
          let attempt = 0;
          const retry = (): void => {
            attempt++;
            if (removed()) resolve();
            else if (attempt < RELEASE_ATTEMPTS || Date.now() < deadline)
              setTimeout(retry, attempt < 20 ? 1 : 10);
            else {
              removeWhenEmpty(dir, 50, 0);
              if (separateMemory) removeWhenEmpty(memoryDir, 50, 0);
              resolve();
            }
          };
          setTimeout(retry, 1);
        });
      },
    },
  };
}

/** Timer rounds of release() (20 at 1 ms, then 10 ms apart: ~150 ms at most) before the slow background retries. */
const RELEASE_ATTEMPTS = 30;

interface MovePrimer {
  prime(tasksFile: string): boolean;
}

/**
 * On cgroup v1 the first move after a quiet spell waits for an RCU grace period (~15 ms on the VM measured), and
 * moves within about one more grace period skip it; the run's moves come right after its spawn, on the critical
 * path. A thread of the native module moves itself into the cgroup it is already in, so that wait runs while the
 * run is still being prepared. Never our main thread: bornInside moves that one (level 1), and a concurrent write of
 * it could leave a level-1 child born outside its cgroup. Without the module, nothing is primed.
 */
function primeMoves(root: string): void {
  const primer = nativeModule<MovePrimer>("cgroup-prime");
  const home = primer === null ? null : ownThreadCgroup(root);
  if (home !== null) primer?.prime(join(home, "tasks"));
}

/** The v1 pids cgroup folder of this process's main thread, or null on cgroup v2. */
function ownThreadCgroup(root: string): string | null {
  try {
    const line = readFileSync(`/proc/self/task/${process.pid}/cgroup`, "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[1]?.split(",").includes("pids"));
    const path = line?.split(":")[2];
    return path === undefined ? null : join(root, "pids", path);
  } catch {
    return null;
  }
}
