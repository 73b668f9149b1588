// runtime/exec/prepared/held.ts (root, real bwrap): a sandbox made ahead and held before its command, the identity of what it bound, and why a run cannot take it.
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planRun } from "../../../runtime/exec/plan/plan.js";
import { type Prepared, prepareRun } from "../../../runtime/exec/prepare/prepare.js";
import { identityOf } from "../../../runtime/exec/prepared/bound-view.js";
import { type HeldSandbox, holdSandboxFor, mismatch } from "../../../runtime/exec/prepared/held.js";
import type { RunRequest } from "../../../runtime/exec/types.js";
import { makeHarness } from "../harness.js";

const h = makeHarness("skillgate-held-");
afterAll(() => h.cleanup());
const ENV = { ...process.env, SKILLGATE_HOME: join(h.root, "home") };
const DEPS = { platform: "linux" as const, hostEnv: ENV };

const MARK = `import os, sys
open(os.path.join(os.environ["OUT"], sys.argv[1]), "w").write("ran")
`;

async function request(overrides: Partial<RunRequest> = {}): Promise<RunRequest> {
  h.addScript("mark.py", MARK);
  return h.request("mark.py", { args: ["marker"], ...overrides });
}

/** The run's own preparation, as runScript makes it for a held sandbox: under its run id and cgroup. */
async function prepareFor(held: HeldSandbox, req: RunRequest): Promise<Prepared> {
  const planned = await planRun(req, held.runId, "linux", ENV);
  if (!("plan" in planned)) throw new Error(JSON.stringify(planned.stopped));
  const ready = await prepareRun(planned.plan, ENV, undefined, held.cgroup);
  if (!("prepared" in ready)) throw new Error(JSON.stringify(ready.stopped));
  return ready.prepared;
}

async function settle(prepared: Prepared): Promise<void> {
  prepared.setup?.release();
  await prepared.scratch.remove();
}

async function held(req: RunRequest): Promise<HeldSandbox> {
  const made = await holdSandboxFor(req, DEPS);
  if (made === null) throw new Error("no sandbox was held (needs root, bwrap and a pids cgroup)");
  return made;
}

describe("holdSandboxFor", () => {
  it("holds bwrap before the command, both its pids in the run's cgroup; go() runs the command", async () => {
    const req = await request();
    const sandbox = await held(req);
    try {
      expect(sandbox.runId).toMatch(/^sg-[0-9a-f-]{36}$/);
      expect(sandbox.argv.join(" ")).toContain(`--setenv SKILLGATE_RUN_ID ${sandbox.runId}`);
      expect(sandbox.cgroup.members()).toHaveLength(2);
      expect(sandbox.cgroup.members()).toContain(sandbox.spawned.child.pid);
      expect(existsSync(join(h.out, "marker"))).toBe(false);
      sandbox.go();
      expect(await sandbox.spawned.exited).toEqual({ code: 0, signal: null });
      expect(existsSync(join(h.out, "marker"))).toBe(true);
    } finally {
      rmSync(join(h.out, "marker"), { force: true });
      await sandbox.end(5_000);
    }
    expect(existsSync(sandbox.cgroup.dir)).toBe(false);
  });

  it("counts as held only once bwrap has mounted everything, and records what it mounted", async () => {
    // bwrap reports its child before it mounts; 300 binds make that window wide enough to land in every time.
    const many = Array.from({ length: 300 }, (_, index) => join(h.root, "many", `d${index}`));
    for (const dir of many) mkdirSync(dir, { recursive: true });
    const req = await request({ readOnlyPaths: many });
    const sandbox = await held(req);
    try {
      const root = `/proc/${sandbox.innerPid}/root`;
      const unmounted = many.filter((dir) => identityOf(`${root}${dir}`) !== identityOf(dir));
      expect(unmounted).toEqual([]);
      expect(sandbox.sources.get(many[299] as string)).toBe(identityOf(many[299] as string));
      // Removed now, the folder is one bwrap has bound: the sandbox lives on, and the run is told why it cannot take it.
      rmSync(many[299] as string, { recursive: true });
      mkdirSync(many[299] as string);
      const again = await prepareFor(sandbox, req);
      expect(mismatch(sandbox, again, req)).toBe(`${many[299]} changed since it was bound`);
      await settle(again);
    } finally {
      sandbox.discard();
    }
  });

  it("prepares nothing for runs that cannot be held: level 1, a network grant", async () => {
    expect(await holdSandboxFor(await request({ sandboxLevel: 1 }), DEPS)).toBeNull();
    expect(await holdSandboxFor(await request({ network: true }), DEPS)).toBeNull();
  });

  it("discard() kills the held sandbox and removes its cgroup", async () => {
    const sandbox = await held(await request());
    sandbox.discard();
    expect(existsSync(sandbox.cgroup.dir)).toBe(false);
    expect(await sandbox.spawned.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(existsSync(`/proc/${sandbox.spawned.child.pid}`)).toBe(false);
  });
});

describe("mismatch", () => {
  it("lets the run take the sandbox only when its own preparation is the same, and says why not otherwise", async () => {
    const req = await request();
    const sandbox = await held(req);
    try {
      const same = await prepareFor(sandbox, req);
      expect(mismatch(sandbox, same, req)).toBeNull();
      await settle(same);

      const otherArgs = { ...req, args: ["other"] };
      const argv = await prepareFor(sandbox, otherArgs);
      expect(mismatch(sandbox, argv, otherArgs)).toBe("another sandbox argv");
      await settle(argv);

      const otherLimits = { ...req, limits: { ...req.limits, maxProcesses: 7 } };
      const limits = await prepareFor(sandbox, otherLimits);
      expect(mismatch(sandbox, limits, otherLimits)).toBe("other cgroup limits");
      await settle(limits);

      const otherCwd = { ...req, cwd: h.out };
      const cwd = await prepareFor(sandbox, otherCwd);
      expect(mismatch(sandbox, cwd, otherCwd)).toBe("another cwd");
      await settle(cwd);

      // The skill folder replaced since bwrap bound it: same path, same argv, another folder.
      const replaced = join(h.root, "replaced");
      mkdirSync(replaced);
      const readOnly = { ...req, readOnlyPaths: [replaced] };
      const bound = await held(readOnly);
      try {
        rmSync(replaced, { recursive: true });
        mkdirSync(replaced);
        const again = await prepareFor(bound, readOnly);
        expect(mismatch(bound, again, readOnly)).toBe(`${replaced} changed since it was bound`);
        await settle(again);
      } finally {
        bound.discard();
      }

      sandbox.discard();
      await sandbox.spawned.exited;
      const late = await prepareFor(sandbox, req);
      expect(mismatch(sandbox, late, req)).toBe("it exited");
      await settle(late);
    } finally {
      sandbox.discard();
    }
  });
});
