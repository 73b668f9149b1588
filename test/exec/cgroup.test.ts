// runtime/exec/cgroup.ts (root, real cgroups): the task cap, the memory limit and its OOM facts, sealing, and release/destroy leaving nothing.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nativeModule } from "../../runtime/contracts/index.js";
import { createPidsCgroup, type PidsCgroup } from "../../runtime/exec/cgroup.js";
import { runScript } from "../../runtime/exec/index.js";
import { until } from "../support/poll.js";
import { isolateHome, tempRoot } from "../support/workspace.js";
import { makeHarness } from "./harness.js";

const h = makeHarness("skillgate-cgroup-release-");
// Its runs' probe and ACL-grant caches go to a home of this suite, never the machine's ~/.skillgate.
const isolated = isolateHome(h.root, { setProcess: true });
afterAll(() => {
  isolated.restore();
  h.cleanup();
});

const alive = (pid: number): boolean => {
  try {
    // A zombie is dead: only its reaping is left.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

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

const MIB = 1024 * 1024;
/** The interpreter itself, not a pyenv shim (a shim forks before it execs, which the task cap would count). */
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();

const FORK_UNTIL_REFUSED = `import os, time
kids = []
for i in range(8):
    try:
        pid = os.fork()
    except OSError as error:
        print("fork refused:", error.strerror)
        break
    if pid == 0:
        time.sleep(5)
        os._exit(0)
    kids.append(pid)
print("started", len(kids), flush=True)
for kid in kids:
    os.kill(kid, 9)
`;
let serial = 0;

function made(maxPids: number, memoryBytes?: number): PidsCgroup {
  const result = createPidsCgroup(
    `sg-mirror-cgroup-${process.pid}-${serial++}`,
    maxPids,
    "/sys/fs/cgroup",
    memoryBytes,
  );
  if (!("cgroup" in result)) throw new Error(`needs root and a pids controller: ${result.reason}`);
  return result.cgroup;
}

/** Runs `script` with sh born inside `cgroup`; resolves with its exit code and output once it ends. */
function runInside(
  cgroup: PidsCgroup,
  command: string,
  args: string[],
): Promise<{ code: number | null; signal: string | null; output: string }> {
  let child: ReturnType<typeof spawn> | undefined;
  expect(
    cgroup.bornInside(() => {
      child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    }),
    "cgroup v1 thread move",
  ).toBe(true);
  const started = child as ReturnType<typeof spawn>;
  cgroup.addMemory(started.pid as number);
  let output = "";
  started.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  started.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => started.once("close", (code, signal) => resolve({ code, signal, output })));
}

describe("createPidsCgroup", () => {
  it("caps processes and threads at maxPids: forks past it fail inside the group", async () => {
    const cgroup = made(4);
    try {
      expect(readFileSync(join(cgroup.dir, "pids.max"), "utf8").trim()).toBe("4");
      const ran = await runInside(cgroup, PYTHON, ["-c", FORK_UNTIL_REFUSED]);
      // python3 itself is one task: exactly three children fit beside it, the fourth fork is refused.
      expect(ran.output).toBe("fork refused: Resource temporarily unavailable\nstarted 3\n");
      expect(readFileSync(join(cgroup.dir, "pids.events"), "utf8")).toMatch(/^max [1-9]/m);
    } finally {
      cgroup.destroy();
    }
  });

  it("seal() forbids any further fork, so killing converges even against a fork loop", async () => {
    const cgroup = made(64);
    try {
      cgroup.seal();
      expect(readFileSync(join(cgroup.dir, "pids.max"), "utf8").trim()).toBe("0");
      let child: ReturnType<typeof spawn> | undefined;
      cgroup.bornInside(() => {
        child = spawn("sh", ["-c", "echo unreachable"], { stdio: "ignore" });
      });
      const exit = await new Promise<unknown>((resolve) => {
        child?.once("error", (error) => resolve((error as NodeJS.ErrnoException).code));
        child?.once("exit", (code) => resolve(code));
      });
      expect(exit).toBe("EAGAIN");
    } finally {
      cgroup.destroy();
    }
  });

  it("limits all memory without swap; an OOM kill is reported, with the kernel's high-water mark", async () => {
    const cgroup = made(16, 32 * MIB);
    try {
      expect(cgroup.memoryDir).not.toBeNull();
      const memoryDir = cgroup.memoryDir as string;
      expect(Number(readFileSync(join(memoryDir, "memory.limit_in_bytes"), "utf8"))).toBe(32 * MIB);
      expect(readFileSync(join(memoryDir, "memory.swappiness"), "utf8").trim()).toBe("0");
      expect(cgroup.oomKilled()).toBe(false);
      const ran = await runInside(cgroup, PYTHON, [
        "-c",
        "b = bytearray(256 * 1024 * 1024); print('survived')",
      ]);
      expect(ran.signal).toBe("SIGKILL");
      expect(ran.output).not.toContain("survived");
      expect(cgroup.oomKilled()).toBe(true);
      const peak = cgroup.peakBytes() as number;
      expect(peak).toBeGreaterThan(16 * MIB);
      expect(peak).toBeLessThanOrEqual(32 * MIB);
    } finally {
      cgroup.destroy();
    }
  });

  it("move() puts a live process into the pids and memory groups (async); a gone pid rejects", async () => {
    const cgroup = made(16, 64 * MIB);
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const pid = child.pid as number;
      await cgroup.move(pid);
      expect(cgroup.members()).toEqual([pid]);
      const memoryProcs = readFileSync(join(cgroup.memoryDir as string, "cgroup.procs"), "utf8");
      expect(memoryProcs.split("\n")).toContain(String(pid));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      await until(() => cgroup.members().length === 0, "the killed sleep to leave the group");
      await expect(cgroup.move(pid)).rejects.toThrow(/ESRCH/);
    } finally {
      child.kill("SIGKILL");
      cgroup.destroy();
    }
  });

  it("has no memory facts without a memory limit", () => {
    const cgroup = made(4);
    try {
      expect([cgroup.memoryDir, cgroup.oomKilled(), cgroup.peakBytes()]).toEqual([null, false, null]);
    } finally {
      cgroup.destroy();
    }
  });

  it("destroy() kills every member (never skillgate itself) and removes the folder before it returns", async () => {
    const cgroup = made(16, 64 * MIB);
    let child: ReturnType<typeof spawn> | undefined;
    cgroup.bornInside(() => {
      child = spawn("sh", ["-c", "sleep 30 & sleep 30 & wait"], { stdio: "ignore", detached: true });
    });
    await until(() => cgroup.members().length === 3, "the shell and its two sleeps");
    expect(cgroup.members()).not.toContain(process.pid);
    const pids = cgroup.members();
    expect(pids).toContain(child?.pid);
    cgroup.destroy();
    expect(existsSync(cgroup.dir)).toBe(false);
    expect(existsSync(cgroup.memoryDir as string)).toBe(false);
    await until(() => pids.filter(alive).length === 0, "every member dead");
  });

  it("says why when the root has no pids controller", () => {
    const temp = tempRoot("skillgate-cgroup-root-", { parent: tmpdir() });
    try {
      expect(createPidsCgroup("sg-mirror-none", 4, temp.dir)).toEqual({
        reason: `no pids cgroup controller under ${temp.dir}`,
      });
    } finally {
      temp.cleanup();
    }
  });
});

describe("cgroup move priming (native/cgroup-prime.c)", () => {
  /** Each thread of this process and its cgroup lines. */
  const threadCgroups = (): Map<string, string> =>
    new Map(
      readdirSync("/proc/self/task").flatMap((tid) => {
        try {
          return [[tid, readFileSync(`/proc/self/task/${tid}/cgroup`, "utf8")] as [string, string]];
        } catch {
          return []; // a thread that ended while listed
        }
      }),
    );

  it("is built, and primes from a thread that moves only itself: no thread of ours changes cgroup", async () => {
    const primer = nativeModule<{ prime(tasksFile: string): boolean }>("cgroup-prime");
    if (primer === null)
      throw new Error("dist/native/cgroup-prime.node is not built (npm run build with a C compiler)");
    const before = threadCgroups();
    // Into another cgroup than ours, so a write of any thread but the primer's own would show below.
    const target = made(8);
    try {
      for (let round = 0; round < 5; round++) expect(primer.prime(join(target.dir, "tasks"))).toBe(true);
      for (let round = 0; round < 10; round++) made(8).destroy(); // each new run cgroup primes as well
      // The primer threads end once their write returned (a grace period at most): wait for the same threads again.
      await until(() => threadCgroups().size === before.size, "the primer threads to end");
      expect(threadCgroups()).toEqual(before);
    } finally {
      target.destroy();
    }
    expect(primer.prime("/nonexistent/tasks")).toBe(true); // best effort: a failed write is not an error
  });
});
