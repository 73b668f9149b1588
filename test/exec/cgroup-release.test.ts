// A run's cgroup is released without blocking (root): every member killed, both folders removed once the kernel has reaped them.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../runtime/exec/cgroup.js";
import { runScript } from "../../runtime/exec/index.js";
import { makeHarness } from "./harness.js";

const h = makeHarness("skillgate-cgroup-release-");
afterAll(() => h.cleanup());

const alive = (pid: number): boolean => {
  try {
    // A zombie is dead: only its reaping is left.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("cgroup release", () => {
  it("kills every member and removes the pids and memory folders", async () => {
    const made = createPidsCgroup(`sg-release-${process.pid}`, 16, "/sys/fs/cgroup", 64 * 1024 * 1024);
    if (!("cgroup" in made)) throw new Error(`needs root and a pids controller: ${made.reason}`);
    const { cgroup } = made;
    let child: ReturnType<typeof spawn> | undefined;
    // Born inside (our thread sits in the group for the spawn), so the sleeps are members from their fork on.
    const born = cgroup.bornInside(() => {
      child = spawn("sh", ["-c", "sleep 30 & sleep 30 & wait"], { stdio: "ignore", detached: true });
    });
    expect(born, "cgroup v1 thread move").toBe(true);
    cgroup.addMemory(child?.pid as number);
    await until(() => cgroup.members().length === 3, "the shell and its two sleeps");
    const pids = cgroup.members();
    await cgroup.release();
    await until(() => pids.filter(alive).length === 0, "every member dead");
    await until(() => !existsSync(cgroup.dir), `${cgroup.dir} removed`);
    expect(cgroup.memoryDir, "a memory cgroup (root with the memory controller)").not.toBeNull();
    await until(() => !existsSync(cgroup.memoryDir as string), `${cgroup.memoryDir} removed`);
  });

  it("a sandboxed run leaves no cgroup folder of its run id behind", async () => {
    h.addScript("bg.sh", "sleep 30 &\necho started\n");
    const result = await runScript(await h.request("bg.sh"));
    expect(result.status, result.output).toBe("ok");
    const runId = result.runId as string;
    const left = () =>
      ["/sys/fs/cgroup/pids/skillgate", "/sys/fs/cgroup/memory/skillgate"].filter((parent) =>
        readdirSync(parent).includes(runId),
      );
    await until(() => left().length === 0, `the folders of ${runId} removed`);
    expect(left()).toEqual([]);
    expect(existsSync(join("/sys/fs/cgroup/pids/skillgate", runId))).toBe(false);
  });
});
