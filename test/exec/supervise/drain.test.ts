// runtime/exec/supervise/drain.ts: a finished run's pipes are waited for, but never longer than the grace period, and no timer is left behind.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { drain } from "../../../runtime/exec/supervise/drain.js";

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("drain", () => {
  it("resolves as soon as both pipes close, clearing its grace timer", async () => {
    const child = spawn("sh", ["-c", "echo out; echo err >&2"], { stdio: ["ignore", "pipe", "pipe"] });
    const streams = [child.stdout, child.stderr] as Readable[];
    for (const stream of streams) stream.resume();
    const before = timers();
    const started = performance.now();
    await drain(streams, 30_000);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(streams.every((stream) => stream.destroyed)).toBe(true);
    expect(timers()).toBe(before);
  });

  it("destroys pipes a killed tree left half open once the grace period is over", async () => {
    // The shell exits at once; its background sleep keeps the write end of both pipes open.
    const child = spawn("sh", ["-c", "sleep 30 & echo started"], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const streams = [child.stdout, child.stderr] as Readable[];
    for (const stream of streams) stream.resume();
    await new Promise((resolve) => child.once("exit", resolve));
    try {
      await drain(streams, 200);
      expect(streams.map((stream) => stream.destroyed)).toEqual([true, true]);
    } finally {
      process.kill(-(child.pid as number), "SIGKILL");
    }
  });

  it("returns at once for pipes that are already gone", async () => {
    const child = spawn("true", [], { stdio: ["ignore", "pipe", "pipe"] });
    const streams = [child.stdout, child.stderr] as Readable[];
    for (const stream of streams) stream.resume();
    await new Promise((resolve) => child.once("close", resolve));
    const before = timers();
    await drain(streams, 30_000);
    expect(timers()).toBe(before);
  });
});
