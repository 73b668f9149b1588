// runtime/exec/plan/plan.ts: a run's first stage on a real request: the level-3 gate, the sandbox choice, the command, PATH and the env allow-list.

import { homedir } from "node:os";
import { dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installationPrefix } from "../../../runtime/exec/bwrap.js";
import { SYSTEM_PATH } from "../../../runtime/exec/plan/host-tools.js";
import { planRun } from "../../../runtime/exec/plan/plan.js";
import { ownBinDir } from "../../../runtime/exec/runner.js";
import { scanFiles } from "../../../runtime/scan/index.js";
import { makeHarness } from "../harness.js";

const h = makeHarness("skillgate-plan-");
afterAll(() => h.cleanup());
const ENV = { ...process.env, SKILLGATE_HOME: `${h.root}/home` };

describe("planRun", () => {
  it("plans the command and the script's env: DUT/OUT, PATH of the runner's and the system's folders, C.UTF-8, the run id", async () => {
    h.addScript("a.py", "print(1)\n");
    const req = await h.request("a.py", { args: ["x y"] });
    const planned = await planRun(req, "sg-plan-1", "linux", ENV);
    if (!("plan" in planned)) throw new Error(JSON.stringify(planned.stopped));
    const { plan } = planned;
    expect(plan.script).toBe("a.py");
    expect(plan.command).toEqual([req.runner, req.scriptPath, "x y"]);
    expect(plan.sandbox.kind).toBe("bwrap");
    const path = (plan.env.PATH ?? "").split(":");
    expect(path[0]).toBe(dirname(req.runner));
    expect(path).toContain(dirname(process.execPath));
    for (const dir of SYSTEM_PATH) expect(path).toContain(dir);
    expect(new Set(path).size).toBe(path.length);
    expect(plan.env).toEqual({
      DUT: req.env.DUT,
      OUT: req.env.OUT,
      PATH: plan.env.PATH,
      LANG: "C.UTF-8",
      SKILLGATE_RUN_ID: "sg-plan-1",
    });
    expect(plan.ownModules).toBe(dirname(ownBinDir() as string));
    const runnerPrefix = installationPrefix(req.runner, homedir());
    if (runnerPrefix !== null) expect(plan.toolPrefixes).toContain(runnerPrefix);
    expect(plan.warnings).toEqual([]);
  });

  it("passes cache variables, drops names that are not allowed and says which", async () => {
    h.addScript("a.py", "print(1)\n");
    const req = await h.request("a.py");
    const planned = await planRun(
      {
        ...req,
        env: { ...req.env, UV_CACHE_DIR: "/c/uv", LD_PRELOAD: "/x.so", NODE_OPTIONS: "--require x" },
      },
      "sg-plan-2",
      "linux",
      ENV,
    );
    if (!("plan" in planned)) throw new Error(JSON.stringify(planned.stopped));
    expect(planned.plan.env.UV_CACHE_DIR).toBe("/c/uv");
    expect(planned.plan.env.LD_PRELOAD).toBeUndefined();
    expect(planned.plan.warnings).toEqual([
      "environment variables not passed to the script (not allowed): LD_PRELOAD, NODE_OPTIONS",
    ]);
  });

  it("names the script by scriptName (the .ts behind a compiled copy)", async () => {
    h.addScript("helper.mjs", "console.log(1)\n");
    const req = await h.request("helper.mjs", { scriptName: "helper.ts" });
    const planned = await planRun(req, "sg-plan-3", "linux", ENV);
    expect("plan" in planned && planned.plan.script).toBe("helper.ts");
  });

  it("stops a level-3 run at the scan gate, sandboxed, with its findings", async () => {
    h.addScript("bad.py", "import base64\nexec(base64.b64decode(X))\n");
    const req = await h.request("bad.py", { sandboxLevel: 3, scan: scanFiles });
    const planned = await planRun(req, "sg-plan-4", "linux", ENV);
    if (!("stopped" in planned)) throw new Error("the run was not stopped");
    expect(planned.stopped).toMatchObject({
      outcome: { status: "refused", code: "SCAN_REFUSED" },
      sandboxed: true,
      warnings: [],
    });
    expect(planned.stopped.findings?.some((finding) => finding.severity === "critical")).toBe(true);
  });

  it("stops a level-2 run without its sandbox, unsandboxed, before anything else is planned", async () => {
    h.addScript("a.py", "print(1)\n");
    const req = await h.request("a.py", { bwrapPath: "/nonexistent/bwrap" });
    expect(await planRun(req, "sg-plan-5", "linux", ENV)).toEqual({
      stopped: {
        outcome: {
          status: "sandbox_unavailable",
          code: "SANDBOX_UNAVAILABLE",
          message: "cannot run script 'a.py' at sandbox level 2: bubblewrap not found at /nonexistent/bwrap",
          fix: "apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox",
        },
        sandboxed: false,
        warnings: [],
      },
    });
  });
});
