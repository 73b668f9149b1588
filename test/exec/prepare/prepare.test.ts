// runtime/exec/prepare/prepare.ts (root): a run's second stage on a real plan: cgroup, sandbox set-up and the final argv per sandbox kind, or the refusal.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { levelOneGuard, SYSTEM_PATH } from "../../../runtime/exec/plan/host-tools.js";
import { type ExecPlan, planRun } from "../../../runtime/exec/plan/plan.js";
import { type Prepared, prepareRun } from "../../../runtime/exec/prepare/prepare.js";
import type { RunRequest } from "../../../runtime/exec/types.js";
import { makeHarness } from "../harness.js";

const h = makeHarness("skillgate-prepare-");
afterAll(() => h.cleanup());
const ENV = { ...process.env, SKILLGATE_HOME: join(h.root, "home") };
let serial = 0;

async function planned(overrides: Partial<RunRequest> = {}): Promise<ExecPlan> {
  h.addScript("a.py", "print(1)\n");
  const runId = `sg-mirror-prepare-${process.pid}-${serial++}`;
  const made = await planRun(await h.request("a.py", overrides), runId, "linux", ENV);
  if (!("plan" in made)) throw new Error(JSON.stringify(made.stopped));
  return made.plan;
}

async function release(prepared: Prepared): Promise<void> {
  prepared.setup?.release();
  prepared.cgroup?.destroy();
  await prepared.scratch.remove();
}

describe("prepareRun", () => {
  it("level 2: prlimit, then setpriv and keyctl, then bwrap with the hand-shake; bwrap gets only the system PATH", async () => {
    const plan = await planned();
    const ready = await prepareRun(plan, ENV, undefined);
    if (!("prepared" in ready)) throw new Error(JSON.stringify(ready.stopped));
    const { prepared } = ready;
    try {
      const bwrapAt = prepared.argv.indexOf(plan.sandbox.bwrap as string);
      expect(prepared.argv[0]).toMatch(/\/prlimit$/);
      expect(prepared.argv.slice(bwrapAt - 9, bwrapAt).map((part) => part.split("/").pop())).toEqual([
        "setpriv",
        "--reuid=2147000001",
        "--regid=2147000001",
        "--clear-groups",
        "--no-new-privs",
        "--",
        "keyctl",
        "session",
        "-",
      ]);
      expect(prepared.argv.slice(-plan.command.length - 1)).toEqual(["--", ...plan.command]);
      expect(prepared.argv.join(" ")).toContain("--seccomp 5 --info-fd 3 --block-fd 4 --chdir");
      expect(prepared.argv.join(" ")).toContain("--setenv HOME /tmp/home --setenv TMPDIR /tmp");
      expect(prepared.spawnEnv).toEqual({ PATH: SYSTEM_PATH.join(":") });
      expect([prepared.handshake, prepared.slirp, prepared.scratch.dir]).toEqual([true, null, null]);
      expect(prepared.cgroup?.dir).toBe(`/sys/fs/cgroup/pids/skillgate/${plan.runId}`);
      expect(prepared.area).not.toBeNull();
      expect(prepared.warnings).toEqual([]);
      // The ACL grants are remembered in skillgate's home, never inside anything a sandbox binds.
      expect(readdirSync(join(ENV.SKILLGATE_HOME, "cache", "acl-grants"))).toHaveLength(1);
    } finally {
      await release(prepared);
    }
  });

  it("level 1: prlimit, the guard, then the command, with HOME and TMPDIR in a throwaway host folder", async () => {
    const plan = await planned({ sandboxLevel: 1 });
    const ready = await prepareRun(plan, ENV, undefined);
    if (!("prepared" in ready)) throw new Error(JSON.stringify(ready.stopped));
    const { prepared } = ready;
    try {
      const guard = await levelOneGuard();
      expect(prepared.argv.slice(7)).toEqual([...guard, ...plan.command]);
      expect(prepared.argv[6]).toBe("--");
      const dir = prepared.scratch.dir as string;
      expect(prepared.spawnEnv).toEqual({ ...plan.env, HOME: join(dir, "home"), TMPDIR: join(dir, "tmp") });
      expect([prepared.handshake, prepared.setup]).toEqual([false, null]);
      expect(prepared.cgroup).not.toBeNull();
    } finally {
      await release(prepared);
    }
    expect(existsSync(prepared.scratch.dir as string)).toBe(false);
  });

  it("macOS: the generated sandbox-exec profile before the command", async () => {
    const plan = {
      ...(await planned()),
      platform: "darwin" as const,
      sandbox: { kind: "sandbox-exec" as const },
    };
    const ready = await prepareRun(plan, ENV, undefined);
    if (!("prepared" in ready)) throw new Error(JSON.stringify(ready.stopped));
    const { prepared } = ready;
    try {
      const at = prepared.argv.indexOf("/usr/bin/sandbox-exec");
      expect(prepared.argv[at + 1]).toBe("-p");
      expect(prepared.argv[at + 2]).toMatch(/^\(version 1\)\n\(deny default\)\n/);
      expect(prepared.argv[at + 2]).toContain(`(allow file-read* file-write* (subpath "${h.ws}")`);
      expect(prepared.argv.slice(at + 3)).toEqual(["--", ...plan.command]);
    } finally {
      await release(prepared);
    }
  });

  it("stops with SANDBOX_UNAVAILABLE when the set-up fails, its cgroup and scratch gone", async () => {
    const plan = await planned({ sandboxUid: 0 });
    const ready = await prepareRun(plan, ENV, undefined);
    expect(ready).toEqual({
      stopped: {
        outcome: {
          status: "sandbox_unavailable",
          code: "SANDBOX_UNAVAILABLE",
          message: "exec.sandbox_uid is 0; the sandbox must run as an unprivileged host uid",
          fix: "set exec.sandbox_uid to a positive uid no real user has (default 2147000001)",
        },
        sandboxed: true,
        warnings: [],
      },
    });
    expect(existsSync(`/sys/fs/cgroup/pids/skillgate/${plan.runId}`)).toBe(false);
  });
});
