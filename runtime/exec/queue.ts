// Run queue: at most N RunSkillScript calls of one session at once (N = 4 per core by default); the rest wait in arrival order.
import { channel } from "node:diagnostics_channel";
import { availableParallelism } from "node:os";

/** `exec.max_parallel_runs`: "auto" (the default: RUNS_PER_CORE per core), "cores" (one per core) or a positive count. */
export type ParallelRuns = "auto" | "cores" | number;

/**
 * Slots per core under "auto". A call spends most of its slot off the CPU, waiting on the sandbox set-up (bwrap,
 * the cgroup move's RCU grace period), the ledger's fsync and the server's own turns; with one slot per core the
 * cores sat idle and 400 calls took twice as long as with no queue. Measured against 2, 3, 4, 6 and 16 slots on
 * 2 cores: docs/performance.md, "Concurrent calls".
 */
export const RUNS_PER_CORE = 4;

/** Each finished task's `{ waitedMs, heldMs }` (in the queue, then in its slot), for whoever subscribes (the concurrency bench). */
export const RUN_QUEUE_CHANNEL = "skillgate:run-queue";
const slotTimes = channel(RUN_QUEUE_CHANNEL);

/** FIFO admission with a fixed number of slots; a finished task hands its slot straight to the next waiter. */
export class RunQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`run queue limit must be >= 1, got ${limit}`);
  }

  /** Tasks holding a slot now. */
  get running(): number {
    return this.active;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const asked = performance.now();
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((admitted) => this.waiting.push(admitted));
    const admitted = performance.now();
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
      if (slotTimes.hasSubscribers)
        slotTimes.publish({ waitedMs: admitted - asked, heldMs: performance.now() - admitted });
    }
  }
}

/** The slot count for a setting: "cores" is the processors this process may use (at least 1), "auto" 4 times that. */
export function parallelRunsFor(setting: ParallelRuns, cores: number = availableParallelism()): number {
  if (setting === "auto") return RUNS_PER_CORE * Math.max(1, cores);
  return setting === "cores" ? Math.max(1, cores) : setting;
}

const queues = new WeakMap<object, RunQueue>();

/**
 * The queue of one owner (a session: every MCP connection of a server shares it). Made on first use; a changed
 * limit (a reloaded config) gets a new queue for the calls that arrive from then on.
 */
export function runQueueFor(owner: object, setting: ParallelRuns): RunQueue {
  const limit = parallelRunsFor(setting);
  const existing = queues.get(owner);
  if (existing?.limit === limit) return existing;
  const queue = new RunQueue(limit);
  queues.set(owner, queue);
  return queue;
}
