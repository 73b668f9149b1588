// The shared memory sampler: one timer for all runs of an interval, one /proc read a tick, stopped runs left alone.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import type { ProcEntry } from "../../runtime/exec/proc-tree.js";
import { type SamplerIO, SharedMemorySampler, sharedMemorySampler } from "../../runtime/exec/sampler.js";
import { type Harness, makeHarness, SMALL_LIMITS } from "./harness.js";

/** A fake /proc: two runs' trees, counting how often the process list is read. */
function fakeIO() {
  const entries: ProcEntry[] = [
    { pid: 10, ppid: 1, pgid: 10 },
    { pid: 11, ppid: 10, pgid: 10 },
    { pid: 20, ppid: 1, pgid: 20 },
  ];
  const io = {
    reads: 0,
    entries: () => {
      io.reads += 1;
      return entries;
    },
    tree: (list: readonly ProcEntry[], root: number) =>
      list.filter((e) => e.pid === root || e.ppid === root).map((e) => e.pid),
    resident: (pids: readonly number[]) => pids.reduce((sum, pid) => sum + pid * 1000, 0),
  } satisfies SamplerIO & { reads: number };
  return io;
}

/** Resolves once `condition` holds, checked on every timer tick (no fixed sleep). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe("SharedMemorySampler", () => {
  it("samples a run at once, then on one shared timer that reads the process list once a tick for all runs", async () => {
    const io = fakeIO();
    const sampler = new SharedMemorySampler(io);
    const a: number[] = [];
    const b: number[] = [];
    stops.push(sampler.watch({ pid: 10, members: null, onSample: (bytes) => a.push(bytes) }, 5));
    stops.push(sampler.watch({ pid: 20, members: null, onSample: (bytes) => b.push(bytes) }, 5));
    expect([a, b]).toEqual([[21_000], [20_000]]);
    expect(io.reads).toBe(2);
    expect([sampler.timers, sampler.watching]).toEqual([1, 2]);
    await until(() => a.length >= 4);
    // After the two first samples, every tick sampled both runs from one read.
    expect(io.reads - 2).toBe(a.length - 1);
    expect(b.length).toBe(a.length);
  });

  it("reads a run's cgroup members instead of the process list, and stops the timer with the last run", async () => {
    const io = fakeIO();
    const sampler = new SharedMemorySampler(io);
    const seen: number[] = [];
    const stop = sampler.watch(
      { pid: 10, members: () => [30, 31], onSample: (bytes) => seen.push(bytes) },
      5,
    );
    await until(() => seen.length >= 3);
    expect(new Set(seen)).toEqual(new Set([61_000]));
    expect(io.reads).toBe(0);
    stop();
    expect([sampler.timers, sampler.watching]).toEqual([0, 0]);
  });

  it("does not sample a run stopped by an earlier run's sample in the same tick", async () => {
    const sampler = new SharedMemorySampler(fakeIO());
    const late: number[] = [];
    let stopLate: () => void = () => undefined;
    let ticks = 0;
    stops.push(
      sampler.watch(
        {
          pid: 20,
          members: null,
          onSample: () => {
            ticks += 1;
            if (ticks === 2) stopLate();
          },
        },
        5,
      ),
    );
    stopLate = sampler.watch({ pid: 10, members: null, onSample: (bytes) => late.push(bytes) }, 5);
    await until(() => ticks >= 4);
    expect(late).toEqual([21_000]);
  });

  it("gives each interval its own timer", () => {
    const sampler = new SharedMemorySampler(fakeIO());
    stops.push(sampler.watch({ pid: 10, members: null, onSample: () => undefined }, 5));
    stops.push(sampler.watch({ pid: 20, members: null, onSample: () => undefined }, 7));
    expect([sampler.timers, sampler.watching]).toEqual([2, 2]);
  });

  it("reads a real process tree from /proc", async () => {
    const child = spawn("sh", ["-c", "sleep 30 & wait"], { detached: true, stdio: "ignore" });
    try {
      const sampler = new SharedMemorySampler();
      const seen: number[] = [];
      stops.push(
        sampler.watch({ pid: child.pid as number, members: null, onSample: (b) => seen.push(b) }, 5),
      );
      expect(seen[0]).toBeGreaterThan(0);
    } finally {
      process.kill(-(child.pid as number), "SIGKILL");
    }
  });
});

describe("runScript with the shared sampler (real sandboxed runs at once)", () => {
  let h: Harness;
  beforeAll(() => {
    h = makeHarness("skillgate-sampler-");
    // Marks itself alive, holds ~40 MiB, waits for the test's release file (bounded), exits 0.
    h.addScript(
      "hold.py",
      [
        "import os, sys, time, uuid",
        "block = bytearray(40 << 20)",
        "open(os.path.join(sys.argv[1], 'alive-' + uuid.uuid4().hex), 'w').close()",
        "deadline = time.time() + 20",
        "while not os.path.exists(sys.argv[2]) and time.time() < deadline:",
        "    time.sleep(0.01)",
        "print(len(block))",
      ].join("\n"),
    );
    h.addScript("mem.py", "a = []\nwhile True:\n    a.append(bytearray(1 << 20))\n");
  });
  afterAll(() => h.cleanup());

  it("samples concurrent runs on one timer and still kills only the run over its limit", async () => {
    const release = join(h.ws, "release");
    const holders = [1, 2].map(async () =>
      runScript(
        await h.request("hold.py", { args: [h.ws, release], limits: { ...SMALL_LIMITS, timeoutMs: 30_000 } }),
      ),
    );
    await until(() => readdirSync(h.ws).filter((name) => name.startsWith("alive-")).length === 2);
    expect([sharedMemorySampler.timers, sharedMemorySampler.watching]).toEqual([1, 2]);
    const hog = await runScript(await h.request("mem.py"));
    expect(hog.status).toBe("memory_limit");
    writeFileSync(release, "");
    const held = await Promise.all(holders);
    for (const run of held) {
      expect(run).toMatchObject({ status: "ok", stdout: `${40 << 20}\n` });
      expect(run.peakMemoryBytes).toBeGreaterThan(40 << 20);
    }
    expect(existsSync(release)).toBe(true);
    expect([sharedMemorySampler.timers, sharedMemorySampler.watching]).toEqual([0, 0]);
  });
});
