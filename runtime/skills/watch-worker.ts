// Folder watcher on its own thread: reports changed folders and answers "fences" so a sync caller knows it has seen every event.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

/**
 * Why a thread: fs.watch events reach the main thread only when its event loop turns, so a synchronous
 * snapshot() right after a write would miss them. Here one inotify instance (libuv uses one per loop)
 * watches every walked folder plus a private fence folder. inotify delivers events in order, so once
 * the thread has seen our fence write, it has already seen (and posted) every change that completed
 * before that write. snapshot() writes the fence, waits on an Atomics cell, then drains the posted
 * changes with receiveMessageOnPort — no stale data and no event-loop turn needed.
 */
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const { port, shared, fenceDir, fenceFile } = workerData;
const watchers = new Map();
function drop(dir) {
  const entry = watchers.get(dir);
  if (entry) entry.watcher.close();
  watchers.delete(dir);
}
function watch(dir) {
  if (watchers.has(dir)) return;
  try {
    const ino = fs.statSync(dir).ino;
    const watcher = fs.watch(dir, { persistent: false }, (eventType, filename) => {
      // A watch follows the inode: a sub-folder that was deleted, moved or replaced has a dead watch.
      // Its parent sees a "rename" for its name (inode numbers can be reused, so we do not trust them
      // alone); the folder itself may also have been replaced, which its own inode shows.
      if (eventType === "rename" && filename) {
        const child = dir + "/" + filename;
        if (watchers.has(child)) {
          drop(child);
          port.postMessage({ dir: child, replaced: true });
        }
      }
      let same = false;
      try { same = fs.statSync(dir).ino === ino; } catch {}
      if (same) port.postMessage({ dir });
      else {
        drop(dir);
        port.postMessage({ dir, replaced: true });
      }
    });
    watcher.on("error", () => {
      drop(dir);
      port.postMessage({ dir, replaced: true });
    });
    watchers.set(dir, { watcher, ino });
  } catch (error) {
    // ENOENT: the folder went away between walk and watch (its parent's event covers it).
    if (error && error.code === "ENOENT") port.postMessage({ dir, replaced: true });
    else port.postMessage({ dir, failed: String(error && error.code) });
  }
}
parentPort.on("message", (message) => {
  for (const dir of message.unwatch || []) drop(dir);
  for (const dir of message.watch || []) watch(dir);
  if (message.ack !== undefined) {
    Atomics.store(shared, 1, message.ack);
    Atomics.notify(shared, 1);
  }
});
fs.watch(fenceDir, { persistent: true }, () => {
  let seen = 0;
  try { seen = Number(fs.readFileSync(fenceFile, "utf8")) || 0; } catch {}
  if (seen > Atomics.load(shared, 0)) {
    Atomics.store(shared, 0, seen);
    Atomics.notify(shared, 0);
  }
});
`;

/** Fence folders still open, removed at exit when a catalog was never closed. */
const openFenceDirs = new Set<string>();
let exitHookInstalled = false;
function removeAtExit(dir: string): void {
  openFenceDirs.add(dir);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const open of openFenceDirs) fs.rmSync(open, { recursive: true, force: true });
  });
  removeStaleFenceDirs();
}

/** A process killed by a signal leaves its fence folder behind: remove those of processes that are gone. */
function removeStaleFenceDirs(): void {
  let names: string[];
  try {
    names = fs.readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^skillgate-fence-(\d+)-/.exec(name);
    if (!match || Number(match[1]) === process.pid || processAlive(Number(match[1]))) continue;
    try {
      fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Another user's leftover (EACCES): not ours to remove, and no reason to fail this watcher.
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const FENCE_SLOT = 0;
const ACK_SLOT = 1;

/** Fences begun by every watcher of this process: a fence begun after fenceMark() returned has a higher number. */
let fencesBegun = 0;

/**
 * The fence count now. A caller that takes it when its work arrives (a tool call) can later ask
 * `changes(mark)`: when any fence begun after the mark has completed, every change made before the mark was
 * already handed out, so no new fence is needed. Many calls that arrived together share one fence.
 */
export function fenceMark(): number {
  return fencesBegun;
}

export interface FolderWatcher {
  /** Starts watching (idempotent) and waits until the watches are in place. False when the watcher broke. */
  watch(dirs: string[], unwatch?: string[]): boolean;
  /**
   * Folders with a change since the last call (`changed`), and folders whose watch died because the
   * folder was deleted, moved or replaced (`replaced`: re-walk them whole and watch them again).
   * Null when the watcher cannot vouch for anything (use a full rescan). With `since` (a fenceMark()), the
   * answer covers every change completed before that mark was taken, not necessarily later ones: the fence
   * round trip is skipped when a fence begun after the mark already completed.
   */
  changes(since?: number): { changed: Set<string>; replaced: Set<string> } | null;
  close(): void;
}

export function startFolderWatcher(timeoutMs = 2000): FolderWatcher | null {
  let fenceDir: string;
  try {
    fenceDir = fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-fence-${process.pid}-`));
  } catch {
    return null;
  }
  removeAtExit(fenceDir);
  const fenceFile = path.join(fenceDir, "fence");
  fs.writeFileSync(fenceFile, "0");
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const { port1, port2 } = new MessageChannel();
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, shared, fenceDir, fenceFile },
      transferList: [port2],
    });
  } catch {
    fs.rmSync(fenceDir, { recursive: true, force: true });
    openFenceDirs.delete(fenceDir);
    return null;
  }
  worker.unref();
  let broken = false;
  let closed = false;
  worker.on("error", () => {
    broken = true;
  });
  worker.on("exit", () => {
    broken = true;
  });
  let fence = 0;
  /** The process-wide number (fencesBegun) of this watcher's last completed fence. */
  let lastFence = 0;
  let ack = 0;
  const pending = new Set<string>();
  const replaced = new Set<string>();

  const waitFor = (slot: number, value: number): boolean => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = Atomics.load(shared, slot);
      if (current >= value) return true;
      const left = deadline - Date.now();
      if (left <= 0 || broken) return false;
      Atomics.wait(shared, slot, current, Math.min(left, 50));
    }
  };
  const drain = (): void => {
    for (;;) {
      const received = receiveMessageOnPort(port1 as MessagePort);
      if (!received) return;
      const message = received.message as { dir: string; failed?: string; replaced?: boolean };
      if (message.failed) broken = true;
      if (message.replaced) replaced.add(message.dir);
      else pending.add(message.dir);
    }
  };

  return {
    watch(dirs, unwatch = []) {
      if (broken || closed) return false;
      if (dirs.length === 0 && unwatch.length === 0) return true;
      ack += 1;
      worker.postMessage({ watch: dirs, unwatch, ack });
      if (!waitFor(ACK_SLOT, ack)) broken = true;
      return !broken;
    },
    changes(since) {
      if (broken || closed) return null;
      if (since === undefined || lastFence <= since) {
        fencesBegun += 1;
        const number = fencesBegun;
        fence += 1;
        try {
          fs.writeFileSync(fenceFile, String(fence));
        } catch {
          broken = true;
          return null;
        }
        if (!waitFor(FENCE_SLOT, fence)) {
          broken = true;
          return null;
        }
        lastFence = number;
      }
      // Without a fence this hands out what the thread posted so far: not needed for the guarantee, but fresher.
      drain();
      if (broken) return null;
      const result = { changed: new Set(pending), replaced: new Set(replaced) };
      pending.clear();
      replaced.clear();
      return result;
    },
    close() {
      if (closed) return;
      closed = true;
      void worker.terminate();
      port1.close();
      fs.rmSync(fenceDir, { recursive: true, force: true });
      openFenceDirs.delete(fenceDir);
    },
  };
}
