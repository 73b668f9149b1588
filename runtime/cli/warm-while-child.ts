// Runs a one-shot warm-up while a child process of this CLI works: the node process only waits then, so what the call needs after the child (the lock code) loads off the critical path.
import type { ChildProcess } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { Writable } from "node:stream";

/** Node publishes every ChildProcess it creates here (a child spawned by anything in this process). */
const CHILD_CHANNEL = "child_process";
/** The sandbox's hand-shake pipe: bwrap waits on it until the parent writes "go" and ends it (exec/supervise). */
const HANDSHAKE_FD = 4;

const running = (child: ChildProcess) =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * Calls `warm` once while a child is running: `delayMs` after it was spawned (a quick child such as setfacl ends
 * before, and its parent has work right after it), or, for a child with a hand-shake pipe, right after the parent
 * ended that pipe, since until then the parent still has to answer the sandbox promptly. Timers are unref'd: they
 * never keep the process alive; an error thrown by `warm` is dropped. Returns a stop function; `warm` never runs after it.
 */
export function warmWhileAChildRuns(warm: () => void, delayMs = 10): () => void {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    unsubscribe(CHILD_CHANNEL, onChild);
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  const later = (ms: number, child: ChildProcess): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped || !running(child)) return;
      stop();
      try {
        warm();
      } catch {
        // Only a head start: whatever failed here fails again, and is reported, where the call needs it.
      }
    }, ms);
    timer.unref();
    timers.add(timer);
  };
  function onChild(message: unknown): void {
    const child = (message as { process?: ChildProcess }).process;
    if (stopped || child === undefined) return;
    // Published before the spawn: its pipes exist on the next turn.
    const immediate = setImmediate(() => {
      if (stopped || !running(child)) return;
      const handshake = child.stdio[HANDSHAKE_FD] as Writable | null | undefined;
      if (handshake === null || handshake === undefined || typeof handshake.once !== "function")
        later(delayMs, child);
      else if (handshake.writableFinished) later(0, child);
      else handshake.once("finish", () => later(0, child));
    });
    immediate.unref();
  }
  subscribe(CHILD_CHANNEL, onChild);
  return stop;
}
