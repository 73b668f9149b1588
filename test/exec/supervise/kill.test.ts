// runtime/exec/supervise/kill.ts: a run's whole tree dies: its process group and descendants, or every cgroup member (a double-forked daemon too).

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../../runtime/exec/cgroup.js";
import { killTree } from "../../../runtime/exec/supervise/kill.js";
import { processesWithMarker, survivors } from "../../support/host-probes.js";
import { until } from "../../support/poll.js";

describe("killTree", () => {
  it("without a cgroup: kills the process group and every descendant, a setsid'ed one included", async () => {
    const marker = `sg-kill-${randomUUID()}`;
    const child = spawn("sh", ["-c", "sleep 30 & setsid sleep 31 & wait"], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, SG_MARK: marker },
    });
    await until(() => processesWithMarker(marker).length === 3, "sh and its two sleeps");
    killTree(child, null, "linux");
    expect(await survivors(marker)).toEqual([]);
  });

  it("with a cgroup: seals it and kills every member, a double-forked daemon that left the tree too", async () => {
    const made = createPidsCgroup(`sg-mirror-kill-${process.pid}`, 16);
    if (!("cgroup" in made)) throw new Error(`needs root and a pids controller: ${made.reason}`);
    const { cgroup } = made;
    const marker = `sg-kill-${randomUUID()}`;
    let child: ReturnType<typeof spawn> | undefined;
    try {
      cgroup.bornInside(() => {
        // The inner shell forks the daemon and exits: it is reparented away, in a session of its own.
        child = spawn("sh", ["-c", "setsid sh -c 'sleep 32 & exit 0'; sleep 30"], {
          detached: true,
          stdio: "ignore",
          env: { ...process.env, SG_MARK: marker },
        });
      });
      // The daemon: `sleep 32`, no longer a child of the run's shell (its parent exited; it was reparented).
      const daemon = (): number | undefined =>
        processesWithMarker(marker).find((pid) => {
          try {
            const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8");
            const ppid = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1];
            return argv === "sleep\u000032\u0000" && ppid !== String(child?.pid);
          } catch {
            return false;
          }
        });
      await until(
        () => daemon() !== undefined && processesWithMarker(marker).length === 3,
        "the reparented daemon",
      );
      expect(cgroup.members()).toContain(daemon());
      killTree(child as ReturnType<typeof spawn>, cgroup, "linux");
      expect(readFileSync(join(cgroup.dir, "pids.max"), "utf8").trim()).toBe("0");
      expect(await survivors(marker)).toEqual([]);
    } finally {
      cgroup.destroy();
    }
  });

  it("does nothing for a child that never started", () => {
    const child = spawn("/nonexistent/program", [], { stdio: "ignore" });
    child.on("error", () => undefined);
    expect(() => killTree(child, null, "linux")).not.toThrow();
  });
});
