// The run queue on its own: at most `limit` tasks at once, FIFO admission, slots freed on failure, "auto" and "cores" resolved.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/schema.js";
import { parallelRunsFor, RUN_QUEUE_CHANNEL, RunQueue, runQueueFor } from "../../runtime/exec/queue.js";

/** A task that runs until the test settles it, recording when it started. */
function gate(started: string[], name: string) {
  let settle!: (fail: boolean) => void;
  const done = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  const task = async () => {
    started.push(name);
    if (await done) throw new Error(`${name} failed`);
    return name;
  };
  return { task, finish: () => settle(false), fail: () => settle(true) };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("RunQueue", () => {
  it("runs at most `limit` tasks at once and admits the waiting ones in arrival order", async () => {
    const queue = new RunQueue(2);
    const started: string[] = [];
    const gates = ["a", "b", "c", "d", "e"].map((name) => gate(started, name));
    const results = gates.map((g) => queue.run(g.task));
    await flush();
    expect(started).toEqual(["a", "b"]);
    expect([queue.running, queue.queued]).toEqual([2, 3]);
    gates[1]?.finish();
    await flush();
    expect(started).toEqual(["a", "b", "c"]);
    gates[0]?.finish();
    await flush();
    expect(started).toEqual(["a", "b", "c", "d"]);
    expect([queue.running, queue.queued]).toEqual([2, 1]);
    for (const g of gates) g.finish();
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d", "e"]);
    expect([queue.running, queue.queued]).toEqual([0, 0]);
  });

  it("frees the slot of a task that throws and passes the error to its caller", async () => {
    const queue = new RunQueue(1);
    const started: string[] = [];
    const first = gate(started, "first");
    const second = gate(started, "second");
    const failing = queue.run(first.task);
    const next = queue.run(second.task);
    await flush();
    expect(started).toEqual(["first"]);
    first.fail();
    await expect(failing).rejects.toThrow("first failed");
    await flush();
    expect(started).toEqual(["first", "second"]);
    second.finish();
    expect(await next).toBe("second");
    expect(queue.running).toBe(0);
  });

  it("publishes each finished task's time in the queue and in its slot, the waiter's wait covering the holder's hold", async () => {
    const times: Array<{ waitedMs: number; heldMs: number }> = [];
    const listener = (message: unknown) => times.push(message as { waitedMs: number; heldMs: number });
    subscribe(RUN_QUEUE_CHANNEL, listener);
    try {
      const queue = new RunQueue(1);
      const started: string[] = [];
      const first = gate(started, "first");
      const second = gate(started, "second");
      const results = [queue.run(first.task), queue.run(second.task)];
      for (let turn = 0; turn < 20; turn++) await flush();
      first.finish();
      await flush();
      second.finish();
      expect(await Promise.all(results)).toEqual(["first", "second"]);
      expect(times).toHaveLength(2);
      const [held, waited] = times as [
        { waitedMs: number; heldMs: number },
        { waitedMs: number; heldMs: number },
      ];
      // The second asked right after the first was admitted, and got the slot only once the first let go of it.
      expect(waited.waitedMs).toBeGreaterThan(held.waitedMs);
      expect(waited.waitedMs).toBeGreaterThanOrEqual(held.heldMs - 0.5);
      expect(waited.heldMs).toBeGreaterThan(0);
    } finally {
      unsubscribe(RUN_QUEUE_CHANNEL, listener);
    }
  });

  it("refuses a limit below 1 or not an integer", () => {
    expect(() => new RunQueue(0)).toThrow("run queue limit must be >= 1, got 0");
    expect(() => new RunQueue(1.5)).toThrow("run queue limit must be >= 1, got 1.5");
  });
});

describe("parallelRunsFor / runQueueFor", () => {
  it('"cores" is the processors this process may use, at least 1; a number is taken as it is', () => {
    expect(parallelRunsFor("cores")).toBe(availableParallelism());
    expect(parallelRunsFor("cores", 0)).toBe(1);
    expect(parallelRunsFor("cores", 8)).toBe(8);
    expect(parallelRunsFor(3, 8)).toBe(3);
  });

  it('"auto" (the default) is 4 slots per processor, at least 4', () => {
    expect(parallelRunsFor("auto")).toBe(4 * availableParallelism());
    expect(parallelRunsFor("auto", 2)).toBe(8);
    expect(parallelRunsFor("auto", 0)).toBe(4);
    expect(ConfigSchema.parse({}).exec.max_parallel_runs).toBe("auto");
  });

  it("gives one owner the same queue while the limit is unchanged, a new one when it changes", () => {
    const owner = {};
    const first = runQueueFor(owner, 2);
    expect(runQueueFor(owner, 2)).toBe(first);
    expect(runQueueFor({}, 2)).not.toBe(first);
    const changed = runQueueFor(owner, 3);
    expect(changed).not.toBe(first);
    expect(changed.limit).toBe(3);
  });
});
