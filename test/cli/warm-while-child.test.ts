// warmWhileAChildRuns: the warm-up runs once, while a real child process is still running, never after stop().
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { warmWhileAChildRuns } from "../../runtime/cli/warm-while-child.js";

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met within 20 s");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, "exit");

describe("warmWhileAChildRuns", () => {
  it("warms once while a child runs, not again for the next child", async () => {
    const children: ChildProcess[] = [];
    const calls: Array<number | null | "no child"> = [];
    const stop = warmWhileAChildRuns(() => {
      calls.push(children[0] === undefined ? "no child" : children[0].exitCode);
    }, 20);
    try {
      children.push(spawn("sleep", ["2"]));
      children.push(spawn("sleep", ["2"]));
      await until(() => calls.length > 0);
      // The first child was still running (no exit code) when the warm-up ran.
      expect(calls).toEqual([null]);
      children.push(spawn("sleep", ["0.3"]));
      await exited(children[2] as ChildProcess);
      expect(calls).toEqual([null]);
    } finally {
      stop();
      for (const child of children) child.kill();
    }
  });

  it("does not warm for a child that ended before the delay; warms for a later one", async () => {
    let warmedAt = 0;
    const stop = warmWhileAChildRuns(() => {
      warmedAt = performance.now();
    }, 500);
    const quick = spawn("true");
    await exited(quick);
    const spawnedAt = performance.now();
    const slow = spawn("sleep", ["5"]);
    try {
      await until(() => warmedAt > 0);
      // The quick child's timer was due first (500 ms after it): the call came from the slow child's.
      expect(warmedAt - spawnedAt).toBeGreaterThanOrEqual(490);
    } finally {
      stop();
      slow.kill();
    }
  });

  it("warms a child with a hand-shake pipe only once its parent ended that pipe", async () => {
    const events: string[] = [];
    // Spawned before the warm-up listens, so it is only a clock: well past the 20 ms delay when it ends.
    const clock = spawn("sleep", ["0.3"]);
    const stop = warmWhileAChildRuns(() => events.push("warm"), 20);
    // The sandbox's shape: fd 4 is the pipe the parent writes "go" to; the child waits on it.
    const child = spawn("sh", ["-c", "read go <&4; sleep 5"], {
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    });
    // Killed below while its socket pairs are open: a reset on them is the kill's, not the test's (as handshake.ts does).
    for (const stream of child.stdio) stream?.on("error", () => undefined);
    try {
      // A child without the pipe would have been warmed by now.
      await exited(clock);
      events.push("go");
      (child.stdio[4] as NodeJS.WritableStream).end("go\n");
      await until(() => events.includes("warm"));
      expect(events).toEqual(["go", "warm"]);
    } finally {
      stop();
      child.kill();
    }
  });

  it("drops an error thrown by the warm-up (no uncaught exception)", async () => {
    let called = false;
    const stop = warmWhileAChildRuns(() => {
      called = true;
      throw new Error("warm-up failed");
    }, 10);
    const child = spawn("sleep", ["5"]);
    try {
      await until(() => called);
      // An uncaught exception from the timer would fail this file; one more turn lets it surface.
      await new Promise((resolve) => setImmediate(resolve));
      expect(called).toBe(true);
    } finally {
      stop();
      child.kill();
    }
  });

  it("never warms after stop()", async () => {
    let calls = 0;
    const stop = warmWhileAChildRuns(() => {
      calls++;
    }, 50);
    const child = spawn("sleep", ["0.4"]);
    stop();
    await exited(child);
    const after = spawn("sleep", ["0.4"]);
    await exited(after);
    expect(calls).toBe(0);
  });
});
