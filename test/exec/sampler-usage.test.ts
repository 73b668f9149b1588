// Shared statfs readings (runtime/exec/sampler-usage.ts): one reading serves every run that asks while fresh, never a run twice, never a reading older than asked.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SharedUsage, sharedUsage, type UsageIO } from "../../runtime/exec/sampler-usage.js";

/** Two file systems (devices 1 and 2) whose counters the test moves; counts the statfs calls. */
function fakeIO() {
  const counters = new Map<string, { files: number; bytes: number } | null>([
    ["/a", { files: 100, bytes: 4096 }],
    ["/b", { files: 7, bytes: 512 }],
  ]);
  const io: UsageIO & { clock: number; statfsCalls: string[]; counters: typeof counters } = {
    clock: 0,
    statfsCalls: [],
    counters,
    device: async (path: string) => (path.startsWith("/a") ? 1 : path.startsWith("/b") ? 2 : null),
    statfs: async (path: string) => {
      io.statfsCalls.push(path);
      const root = path.startsWith("/a") ? "/a" : "/b";
      const counter = counters.get(root);
      return counter === null || counter === undefined
        ? null
        : { inodes: counter.files, bytes: counter.bytes, inodesCounted: counter.files !== 0 };
    },
    now: () => io.clock,
  };
  return io;
}

describe("SharedUsage", () => {
  it("looks each root's device up once and reads each file system once, summing them", async () => {
    const io = fakeIO();
    const usage = new SharedUsage(io);
    const devices = await usage.devices(["/a/ws", "/a/tmp/run", "/b/cache", "/gone"]);
    expect([...devices.paths]).toEqual([
      [1, "/a/ws"],
      [2, "/b/cache"],
    ]);
    expect(await usage.usage(devices, 0)).toEqual({
      inodes: 107,
      bytes: 4608,
      inodesCounted: true,
      started: 0,
    });
    expect(io.statfsCalls).toEqual(["/a/ws", "/b/cache"]);
  });

  it("a reading started within the asker's window serves other runs; an older one is read again", async () => {
    const io = fakeIO();
    const usage = new SharedUsage(io);
    const runA = await usage.devices(["/a/ws-1"]);
    const runB = await usage.devices(["/a/ws-2"]);
    io.clock = 10;
    await usage.usage(runA, io.clock - 50);
    io.clock = 40;
    io.counters.set("/a", { files: 500, bytes: 4096 });
    // Run B's check accepts a reading started 50 ms ago: run A's (at 10) serves it, the new files not yet in it.
    expect((await usage.usage(runB, io.clock - 50)).inodes).toBe(100);
    expect(io.statfsCalls).toEqual(["/a/ws-1"]);
    io.clock = 70;
    expect(await usage.usage(runB, io.clock - 50)).toEqual({
      inodes: 500,
      bytes: 4096,
      inodesCounted: true,
      started: 70,
    });
    expect(io.statfsCalls).toEqual(["/a/ws-1", "/a/ws-2"]);
  });

  it("never gives a run the reading it already had, and `notBefore = now` takes none begun before", async () => {
    const io = fakeIO();
    const usage = new SharedUsage(io);
    const run = await usage.devices(["/a/ws"]);
    const first = await usage.usage(run, -50);
    io.counters.set("/a", { files: 111, bytes: 4096 });
    // Same instant, inside the window, but strictly after the run's last reading: a new statfs, the writes in it.
    expect((await usage.usage(run, -50, first.started)).inodes).toBe(111);
    io.counters.set("/a", { files: 112, bytes: 4096 });
    io.clock = 5;
    // After a run ended: only a reading begun from now on (the window's reading from 0 is not taken).
    expect((await usage.usage(run, io.clock)).inodes).toBe(112);
    expect(io.statfsCalls).toEqual(["/a/ws", "/a/ws", "/a/ws"]);
  });

  it("counts no inodes when a file system reports none (btrfs, zfs) or statfs fails", async () => {
    const io = fakeIO();
    const usage = new SharedUsage(io);
    const devices = await usage.devices(["/a", "/b"]);
    io.counters.set("/b", { files: 0, bytes: 0 });
    expect((await usage.usage(devices, 0)).inodesCounted).toBe(false);
    io.clock = 1;
    io.counters.set("/b", null);
    expect(await usage.usage(devices, 1)).toEqual({
      inodes: 100,
      bytes: 4096,
      inodesCounted: false,
      started: 1,
    });
  });

  it("reads the real file system: a file made before a fresh reading is counted in it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "skillgate-usage-"));
    try {
      const devices = await sharedUsage.devices([dir]);
      expect(devices.paths.size).toBe(1);
      const before = await sharedUsage.usage(devices, sharedUsage.now());
      expect(before.inodesCounted || before.inodes === 0).toBe(true);
      expect(before.bytes).toBeGreaterThan(0);
      writeFileSync(join(dir, "f"), "x");
      const after = await sharedUsage.usage(devices, sharedUsage.now(), before.started);
      expect(after.started).toBeGreaterThan(before.started);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
