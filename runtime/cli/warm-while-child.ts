// Runs a one-shot warm-up while a child process of this CLI works: the node process only waits then, so what the call needs after the child (the lock code) loads off the critical path.
import type { ChildProcess } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";

/** Node publishes every ChildProcess it creates here (a child spawned by anything in this process). */
const CHILD_CHANNEL = "child_process";

/**
 * Calls `warm` once, `delayMs` after a child was created, if that child is still running then (a quick child such
 * as setfacl ends before; its parent has work right after it). The timer is unref'd: it never keeps the process
 * alive. Returns a stop function, which also cancels a pending warm-up; `warm` never runs after it.
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
  function onChild(message: unknown): void {
    const child = (message as { process?: ChildProcess }).process;
    if (stopped || child === undefined) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      stop();
      warm();
    }, delayMs);
    timer.unref();
    timers.add(timer);
  }
  subscribe(CHILD_CHANNEL, onChild);
  return stop;
}
