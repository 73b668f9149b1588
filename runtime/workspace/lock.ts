// Serialises state writes to one workspace across processes (proper-lockfile) and within one process.
import { AsyncLocalStorage } from "node:async_hooks";
import { channel } from "node:diagnostics_channel";
import { closeSync, constants, openSync, rmdirSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import lockfile from "proper-lockfile";
import type { WorkspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";

export interface LockOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** A lock not refreshed for this long belongs to a dead process and is taken over (default 10 s, min 2 s). */
  staleMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const heldInContext = new AsyncLocalStorage<Set<string>>();
/** Each acquisition's wait, `{ lockPath, waitedMs }`, for whoever subscribes (the concurrency bench); free otherwise. */
export const LOCK_WAIT_CHANNEL = "skillgate:workspace-lock-wait";
/** Each release: how long the lock was held, from taken to released (folder removed), `{ lockPath, heldMs }`. */
export const LOCK_HELD_CHANNEL = "skillgate:workspace-lock-held";
const lockWaits = channel(LOCK_WAIT_CHANNEL);
const lockHolds = channel(LOCK_HELD_CHANNEL);
const inProcessTail = new Map<string, Promise<unknown>>();

const DEFAULT_TIMEOUT_MS = 30_000;
/** Lock files' folders made by this process already: the recursive mkdir is not repeated on every acquisition. */
const madeParents = new Set<string>();

type Callback<T = void> = (error: NodeJS.ErrnoException | null, value?: T) => void;

/** Calls `op` now and hands its outcome to `done` (outside the try, so a throwing callback is not taken for op's error). */
function now<T>(op: () => T, done: Callback<T>): void {
  let value: T | undefined;
  let failure: NodeJS.ErrnoException | null = null;
  try {
    value = op();
  } catch (error) {
    failure = error as NodeJS.ErrnoException;
  }
  done(failure, value);
}

/**
 * The file system proper-lockfile works through, every call synchronous, so taking and giving back the lock never
 * hands the event loop to other work while callers wait (through the thread pool each call cost two thread
 * wake-ups, stretched to tens of ms on a CPU-starved server). The lock is a *file* made with O_CREAT | O_EXCL
 * (proper-lockfile's "mkdir"), removed by unlink: on this ext4 an unlink takes ~10 µs where rmdir of the lock folder
 * took 3 ms (p99 12 ms, measured), too long to block the loop for and the reason it had stayed in the thread pool.
 * Exclusion is the same both ways: O_EXCL fails with EEXIST on an existing file or folder, mkdir on either, so a
 * process of an older version (folder lock) and this one never both hold it; a stale folder lock is removed too.
 */
const LOCK_FS = {
  mkdir: (path: string, done: Callback) =>
    now(
      () => closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644)),
      done,
    ),
  stat: (path: string, done: Callback<ReturnType<typeof statSync>>) => now(() => statSync(path), done),
  utimes: (path: string, atime: Date, mtime: Date, done: Callback) =>
    now(() => utimesSync(path, atime, mtime), done),
  rmdir: (path: string, done: Callback) => now(() => removeLockFile(path), done),
  // proper-lockfile's exit hook removes the locks a process still holds with this; without it a process that exited
  // (or took SIGTERM) mid-commit left the lock for the next one to wait out as stale (10 s).
  rmdirSync: removeLockFile,
};

function removeLockFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EISDIR" && code !== "EPERM") throw error;
    rmdirSync(path);
  }
}
const defaultSleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function lockTimeout(lockPath: string, timeoutMs: number): SkillgateError {
  const waited = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
  return new SkillgateError(
    "LOCK_TIMEOUT",
    `could not take the workspace lock ${lockPath} within ${waited}: another skillgate process (MCP server or CLI call) holds it; wait for it to finish and retry, or if no skillgate process is running, delete ${lockPath}`,
    { lockPath },
  );
}

async function acquire(
  lockPath: string,
  deadline: number,
  options: LockOptions,
): Promise<() => Promise<void>> {
  const staleMs = Math.max(2_000, options.staleMs ?? 10_000);
  const sleep = options.sleep ?? defaultSleep;
  const parent = dirname(lockPath);
  if (!madeParents.has(parent)) {
    await mkdir(parent, { recursive: true });
    madeParents.add(parent);
  }
  let remade = false;
  for (let attempt = 0; ; attempt++) {
    try {
      return await lockfile.lock(lockPath, {
        lockfilePath: lockPath,
        realpath: false,
        fs: LOCK_FS,
        stale: staleMs,
        // Our own loop, not proper-lockfile's `retries`: those retry every error (EACCES on a read-only state
        // folder would wait out the whole timeout); only ELOCKED is worth waiting for.
        retries: 0,
        // A lost lock must not crash an MCP server from a timer; the holder's work is already under way.
        onCompromised: () => undefined,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The state folder was removed since this process made it (a test's cleanup, a re-init): make it again.
      if (code === "ENOENT" && !remade) {
        remade = true;
        await mkdir(parent, { recursive: true });
        continue;
      }
      if (code !== "ELOCKED") throw error;
      if (Date.now() >= deadline) throw lockTimeout(lockPath, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      await sleep(Math.min(250, 10 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
    }
  }
}

/** Does the current async flow hold the workspace lock at `lockPath` (a nested call would reuse it)? */
export function holdsWorkspaceLock(lockPath: string): boolean {
  return heldInContext.getStore()?.has(lockPath) ?? false;
}

/** Runs fn as a flow that holds no lock, whatever its caller holds (a worker serving many callers must not inherit one's lock). */
export function outsideHeldLocks<T>(fn: () => T): T {
  return heldInContext.exit(fn);
}

/**
 * Does now what the first lock of this process would do first (load proper-lockfile, which the bundles load on first
 * use; turn on the async context's hooks): `skillgate call` runs it while a run's child works. Nothing else changes.
 */
export function warmWorkspaceLock(): void {
  void lockfile.lock;
  heldInContext.run(new Set(), () => undefined);
}

/** Waits for the in-process queue, giving up at the deadline. */
async function waitForTurn(previous: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((done) => {
    timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([previous.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs fn while holding the workspace lock. Nested calls in the same async flow reuse the held lock;
 * concurrent calls in one process queue up before competing with other processes.
 */
export async function withWorkspaceLock<T>(
  paths: Pick<WorkspacePaths, "lockFile">,
  fn: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const lockPath = paths.lockFile;
  const held = heldInContext.getStore();
  if (held?.has(lockPath)) return fn();

  const asked = performance.now();
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const previous = inProcessTail.get(lockPath) ?? Promise.resolve();
  let releaseQueue!: () => void;
  const mine = new Promise<void>((done) => {
    releaseQueue = done;
  });
  const tail = previous.then(() => mine);
  inProcessTail.set(lockPath, tail);
  try {
    if (!(await waitForTurn(previous, deadline)))
      throw lockTimeout(lockPath, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const release = await acquire(lockPath, deadline, options);
    const taken = performance.now();
    if (lockWaits.hasSubscribers) lockWaits.publish({ lockPath, waitedMs: taken - asked });
    try {
      const nextHeld = new Set(held ?? []);
      nextHeld.add(lockPath);
      return await heldInContext.run(nextHeld, () => Promise.resolve(fn()));
    } finally {
      await release().catch(() => undefined);
      if (lockHolds.hasSubscribers) lockHolds.publish({ lockPath, heldMs: performance.now() - taken });
    }
  } finally {
    releaseQueue();
    if (inProcessTail.get(lockPath) === tail) inProcessTail.delete(lockPath);
  }
}
