// runtime/exec/cgroup-sweep.ts (root, real cgroups): an old empty run folder left by a dead process is swept, one of this process's live runs never is, and one still busy or never released at exit is removed after it.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../runtime/exec/cgroup.js";
import { rmdirQuiet, sweepStale } from "../../runtime/exec/cgroup-sweep.js";
import { TSX } from "../mcp/helpers.js";
import { REPO_ROOT } from "../tools/helpers.js";

const PIDS_PARENT = "/sys/fs/cgroup/pids/skillgate";
const twoMinutesAgo = () => new Date(Date.now() - 120_000);

function needsCgroups(): void {
  if (process.getuid?.() !== 0 || !existsSync(PIDS_PARENT))
    throw new Error(`needs root and the cgroup v1 pids hierarchy at ${PIDS_PARENT}`);
}

describe("sweepStale", () => {
  it("removes an empty sg- folder older than a minute that no live run of this process holds", () => {
    needsCgroups();
    const left = join(PIDS_PARENT, `sg-left-by-dead-${process.pid}`);
    const young = join(PIDS_PARENT, `sg-young-${process.pid}`);
    const other = join(PIDS_PARENT, `not-a-run-${process.pid}`);
    for (const dir of [left, young, other]) mkdirSync(dir);
    try {
      utimesSync(left, twoMinutesAgo(), twoMinutesAgo());
      utimesSync(other, twoMinutesAgo(), twoMinutesAgo());
      sweepStale(PIDS_PARENT);
      expect({ left: existsSync(left), young: existsSync(young), other: existsSync(other) }).toEqual({
        left: false,
        young: true,
        other: true,
      });
    } finally {
      for (const dir of [left, young, other]) rmdirQuiet(dir);
    }
  });

  it("keeps this process's run folder however long its run waits to start, and sweeps it once released", async () => {
    needsCgroups();
    // A run on a loaded server can wait more than a minute between making its cgroup and starting bwrap in it.
    const made = createPidsCgroup(`sg-waiting-${process.pid}`, 16);
    if (!("cgroup" in made)) throw new Error(`cannot make a cgroup: ${made.reason}`);
    const { dir } = made.cgroup;
    utimesSync(dir, twoMinutesAgo(), twoMinutesAgo());
    // Another run's creation sweeps first.
    const next = createPidsCgroup(`sg-next-${process.pid}`, 16);
    if (!("cgroup" in next)) throw new Error(`cannot make a cgroup: ${next.reason}`);
    try {
      expect(existsSync(dir)).toBe(true);
    } finally {
      await made.cgroup.release();
      await next.cgroup.release();
    }
    expect(existsSync(dir)).toBe(false);
  });
});

async function until(what: string, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("a run folder still busy when its process exits", () => {
  it("is removed after that process is gone, once its last member has left", async () => {
    needsCgroups();
    // The member: a process of this test, so it outlives the process that made the folder and leaves when told,
    // like a killed sandbox process that takes seconds to finish exiting on a loaded machine.
    const member = spawn("sleep", ["100"], { stdio: "ignore" });
    const runId = `sg-exit-handoff-${process.pid}`;
    const dir = join(PIDS_PARENT, runId);
    const script = `import { createPidsCgroup } from ${JSON.stringify(join(REPO_ROOT, "runtime", "exec", "cgroup.ts"))};
import { removeWhenEmpty } from ${JSON.stringify(join(REPO_ROOT, "runtime", "exec", "cgroup-sweep.ts"))};
const made = createPidsCgroup(${JSON.stringify(runId)}, 8);
if (!("cgroup" in made)) throw new Error(made.reason);
made.cgroup.add(${member.pid});
removeWhenEmpty(made.cgroup.dir, 50);
console.log("exiting");
`;
    try {
      const output = execFileSync(TSX, ["--input-type=module", "-e", script], {
        cwd: REPO_ROOT,
        encoding: "utf8",
      });
      expect(output.trim()).toBe("exiting");
      // Its maker has exited with the folder still busy (its retries were timers of that process).
      expect(readFileSync(join(dir, "cgroup.procs"), "utf8").trim()).toBe(String(member.pid));
      const exited = new Promise((resolve) => member.once("exit", resolve));
      member.kill("SIGKILL");
      await exited;
      await until(`${dir} removed`, () => !existsSync(dir), 10_000);
    } finally {
      member.kill("SIGKILL");
      rmdirQuiet(dir);
    }
  }, 30_000);

  it("made and never released (its process ended while preparing it): its members are killed, then it is removed", async () => {
    needsCgroups();
    const member = spawn("sleep", ["100"], { stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      member.once("exit", (_code, signal) => resolve(signal)),
    );
    const runId = `sg-exit-unreleased-${process.pid}`;
    const dir = join(PIDS_PARENT, runId);
    const script = `import { createPidsCgroup } from ${JSON.stringify(join(REPO_ROOT, "runtime", "exec", "cgroup.ts"))};
const made = createPidsCgroup(${JSON.stringify(runId)}, 8);
if (!("cgroup" in made)) throw new Error(made.reason);
made.cgroup.add(${member.pid});
console.log("exiting");
process.exit(0);
`;
    try {
      const output = execFileSync(TSX, ["--input-type=module", "-e", script], {
        cwd: REPO_ROOT,
        encoding: "utf8",
      });
      expect(output.trim()).toBe("exiting");
      expect(await exited).toBe("SIGKILL");
      await until(`${dir} removed`, () => !existsSync(dir), 10_000);
    } finally {
      member.kill("SIGKILL");
      rmdirQuiet(dir);
    }
  }, 30_000);
});
