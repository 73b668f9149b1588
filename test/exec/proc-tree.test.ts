// runtime/exec/proc-tree.ts: a process's descendants and group from /proc, their resident memory, and a uid's task count.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ProcEntry,
  procEntries,
  processTree,
  residentBytes,
  treeOf,
  userTaskCount,
} from "../../runtime/exec/proc-tree.js";
import { POLL_DEADLINE_MS } from "../support/poll.js";

const entry = (pid: number, ppid: number, pgid = pid): ProcEntry => ({ pid, ppid, pgid });

async function until<T>(read: () => T, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + POLL_DEADLINE_MS;
  for (;;) {
    const value = read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("treeOf", () => {
  const entries = [
    entry(1, 0),
    entry(10, 1),
    entry(11, 10, 10),
    entry(12, 11, 10),
    entry(20, 1, 10), // reparented to init, still in group 10 (a double fork)
    entry(21, 20, 21), // its child in a session of its own
    entry(30, 1),
  ];

  it("finds every descendant, whatever its depth", () => {
    expect(treeOf(entries, 10).sort((a, b) => a - b)).toEqual([10, 11, 12]);
  });

  it("adds the members of the process group, and their descendants, when given", () => {
    expect(treeOf(entries, 10, 10).sort((a, b) => a - b)).toEqual([10, 11, 12, 20, 21]);
  });

  it("leaves out a root that is not (or no longer) a process", () => {
    expect(treeOf(entries, 99)).toEqual([]);
    expect(treeOf([], 10, 10)).toEqual([]);
  });
});

describe("on the real /proc", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  });

  it("procEntries reads this process with its parent and group", () => {
    const self = procEntries().find((e) => e.pid === process.pid);
    expect(self).toEqual({ pid: process.pid, ppid: process.ppid, pgid: expect.any(Number) });
  });

  it("processTree follows a real shell's children, a setsid'ed one included", async () => {
    child = spawn("sh", ["-c", "sleep 30 & setsid sleep 31 & wait"], { detached: true, stdio: "ignore" });
    const pid = child.pid as number;
    const commands = (pids: number[]): string[] =>
      pids
        .map((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0")[0] ?? "";
          } catch {
            return "gone";
          }
        })
        .sort();
    // Polled until setsid has exec'ed its sleep too.
    const tree = await until(
      () => processTree(pid),
      (pids) => commands(pids).join(" ") === "sh sleep sleep",
      "sh and its two sleeps",
    );
    expect(commands(tree)).toEqual(["sh", "sleep", "sleep"]);
    expect(processTree(pid, pid).sort()).toEqual(tree.sort());
  });

  it("residentBytes sums resident memory, counting a vanished pid as 0", () => {
    const own = residentBytes([process.pid]);
    const status = readFileSync("/proc/self/status", "utf8");
    const vmRssKib = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
    expect(own).toBeGreaterThan(10 * 1024 * 1024);
    expect(Math.abs(own - vmRssKib * 1024)).toBeLessThan(16 * 1024 * 1024);
    expect(residentBytes([process.pid, 2 ** 30])).toBeGreaterThanOrEqual(own - 16 * 1024 * 1024);
    expect(residentBytes([2 ** 30])).toBe(0);
  });

  it("userTaskCount counts threads too, as RLIMIT_NPROC does", () => {
    const threads = Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
    expect(userTaskCount(process.getuid?.() ?? 0)).toBeGreaterThanOrEqual(threads);
    expect(userTaskCount(2_147_483_000)).toBe(0);
  });
});
