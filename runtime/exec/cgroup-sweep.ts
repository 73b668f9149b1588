// Run cgroups left behind: retried until empty, handed to a detached remover at exit, swept when old and not ours.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from "node:fs";
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

/** A killed process stays a member until it has finished exiting (seconds on a loaded machine): retry in the background. */
export function removeWhenEmpty(dir: string, attemptsLeft: number, spins = 10): void {
  // Usually free within a few ms: a short synchronous wait covers a process that exits right after the run.
  for (let spin = 0; spin < spins; spin++) {
    if (rmdirQuiet(dir)) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  if (rmdirQuiet(dir) || attemptsLeft <= 0) return;
  handOverAtExit(dir);
  setTimeout(() => removeWhenEmpty(dir, attemptsLeft - 1, 0), 100).unref();
}

/**
 * The background retries are timers of this process, which a process about to exit does not wait for (on a loaded
 * machine killed sandbox processes can take seconds to finish exiting). What is still there at exit goes to a detached shell
 * that keeps trying rmdir for up to 15 s; before, such a folder stayed until a later skillgate swept it. Hooked at
 * load, so it runs before the exit hooks that end held sandboxes; what those leave is handed over at once.
 */
const removingAfterExit = new Set<string>();
let exiting = false;
process.once("exit", () => {
  exiting = true;
  // A folder made and never released (a sandbox still being prepared when the process ended early, e.g. a client
  // that went away mid-shutdown) would stay until a later skillgate's sweep. Its processes die with us anyway (bwrap's
  // --die-with-parent): end them now and hand the folder over as well.
  const unreleased = [...ownLive].filter((dir) => !removingAfterExit.has(dir));
  for (const dir of unreleased) endMembers(dir);
  handOver([...removingAfterExit, ...unreleased]);
});

/** The processes in the cgroup folder `dir`, never this one (whatever happened to the thread move of bornInside). */
export function cgroupMembers(dir: string): number[] {
  try {
    return readFileSync(join(dir, "cgroup.procs"), "utf8")
      .split("\n")
      .filter((line) => line.length > 0)
      .map(Number)
      .filter((pid) => pid !== process.pid);
  } catch {
    return [];
  }
}

/** One SIGKILL to every member of `dir`; false when there was none. */
export function killCgroupMembers(dir: string): boolean {
  const pids = cgroupMembers(dir);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return pids.length > 0;
}

/** No more forks in `dir` (a pids folder), then its members killed; best effort. */
function endMembers(dir: string): void {
  try {
    writeFileSync(join(dir, "pids.max"), "0");
  } catch {
    // a memory folder, or gone
  }
  killCgroupMembers(dir);
}

function handOverAtExit(dir: string): void {
  if (exiting) handOver([dir]);
  else removingAfterExit.add(dir);
}

function handOver(dirs: string[]): void {
  const left = dirs.filter((dir) => existsSync(dir));
  if (left.length === 0) return;
  try {
    spawn("/bin/sh", ["-c", REMOVER_SCRIPT, "skillgate-cgroup-remover", ...left], {
      detached: true,
      stdio: "ignore",
    }).unref();
  } catch {
    // no shell: the sweep of a later skillgate removes them
  }
}

/** rmdir of every folder given ($@) until all are gone, 150 tries 0.1 s apart; paths are arguments, never code. */
const REMOVER_SCRIPT = `i=0
while [ "$i" -lt 150 ]; do
  left=0
  for d in "$@"; do if [ -d "$d" ] && ! rmdir "$d" 2>/dev/null; then left=1; fi; done
  [ "$left" -eq 0 ] && exit 0
  i=$((i + 1))
  sleep 0.1
done`;
