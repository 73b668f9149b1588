// runPlanFor: limits from config and overrides (capped), and the skill's network/env/cache declarations.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExecSchema } from "../../runtime/config/schema.js";
import { runPlanFor } from "../../runtime/exec/index.js";
import { DEFAULT_WORKSPACE_BUDGET } from "../../runtime/exec/prepare/workspace-budget.js";

const MIB = 1024 * 1024;
const home = "/tmp/skillgate-home-test";
const hostEnv = { SKILLGATE_HOME: home, API_TOKEN: "t0k", LD_PRELOAD: "/evil.so" };

function skill(metadata: Record<string, string>, id = "group/skill") {
  return { id, metadata };
}

describe("runPlanFor", () => {
  it("takes the defaults of the exec config", () => {
    const plan = runPlanFor(ExecSchema.parse({}), skill({}), hostEnv);
    expect(plan).toEqual({
      limits: {
        timeoutMs: 30_000,
        memoryBytes: 512 * MIB,
        outputBytes: 1_048_576,
        maxProcesses: 256,
        maxFileSizeBytes: 256 * MIB,
        maxOpenFiles: 1024,
      },
      workspaceBudget: { files: 10_000, bytes: 256 * MIB },
      sandboxLevel: 2,
      network: false,
      envNames: [],
      persistentPaths: [],
      extraEnv: {},
      warnings: [],
    });
  });

  it("takes the workspace budget from exec.workspace_files / workspace_mb; its defaults are runScript's", () => {
    expect(runPlanFor(ExecSchema.parse({}), skill({}), hostEnv).workspaceBudget).toEqual(
      DEFAULT_WORKSPACE_BUDGET,
    );
    const plan = runPlanFor(ExecSchema.parse({ workspace_files: 5, workspace_mb: 2 }), skill({}), hostEnv);
    expect(plan.workspaceBudget).toEqual({ files: 5, bytes: 2 * MIB });
  });

  it("applies per-skill overrides and caps the timeout at max_timeout_seconds", () => {
    const exec = ExecSchema.parse({
      timeout_seconds: 900,
      max_timeout_seconds: 120,
      skill_overrides: {
        "group/skill": { memory_mb: 64, output_bytes: 10, sandbox_level: 3 },
        other: { timeout_seconds: 5 },
      },
    });
    const plan = runPlanFor(exec, skill({}), hostEnv);
    expect(plan.limits.timeoutMs).toBe(120_000);
    expect(plan.limits.memoryBytes).toBe(64 * MIB);
    expect(plan.limits.outputBytes).toBe(10);
    expect(plan.sandboxLevel).toBe(3);
    expect(runPlanFor(exec, skill({}, "other"), hostEnv).limits.timeoutMs).toBe(5_000);
    const capped = ExecSchema.parse({
      max_timeout_seconds: 60,
      skill_overrides: { x: { timeout_seconds: 3600 } },
    });
    expect(runPlanFor(capped, skill({}, "x"), hostEnv).limits.timeoutMs).toBe(60_000);
  });

  it("gives the network only when the operator grants it, whatever the metadata says", () => {
    const none = ExecSchema.parse({});
    expect(runPlanFor(none, skill({ "skillgate-network": "true" }), hostEnv)).toMatchObject({
      network: false,
      warnings: [
        "skill 'group/skill' asks for the network (metadata skillgate-network) but the operator has not granted it, so its runs have none; fix: set exec.grants.group/skill.network: true in the config if you trust it",
      ],
    });
    const granted = ExecSchema.parse({ grants: { "group/skill": { network: true } } });
    expect(runPlanFor(granted, skill({}), hostEnv)).toMatchObject({ network: true, warnings: [] });
    expect(runPlanFor(granted, skill({}, "other"), hostEnv).network).toBe(false);
    expect(runPlanFor(none, skill({ "skillgate-network": "false" }), hostEnv)).toMatchObject({
      network: false,
      warnings: [],
    });
  });

  it("passes granted host variables, refuses dangerous ones and warns about ungranted declarations", () => {
    const exec = ExecSchema.parse({
      grants: {
        "group/skill": {
          env: [
            "API_TOKEN",
            "MISSING_ONE",
            "LD_PRELOAD",
            "NODE_OPTIONS",
            "PYTHONPATH",
            "HTTPS_PROXY",
            "PATH",
            "UV_CACHE_DIR",
            "bad-name",
          ],
        },
      },
    });
    const plan = runPlanFor(exec, skill({ "skillgate-env": "API_TOKEN, SECRET_KEY" }), hostEnv);
    expect(plan.envNames).toEqual(["API_TOKEN", "MISSING_ONE"]);
    expect(plan.extraEnv).toEqual({ API_TOKEN: "t0k" });
    expect(plan.warnings).toEqual([
      "skill 'group/skill' asks for the host variable SECRET_KEY (metadata skillgate-env) but the operator has not granted it, so it is not passed; fix: add SECRET_KEY to exec.grants.group/skill.env in the config if you trust it",
      "exec.grants.group/skill.env names LD_PRELOAD, which belongs to a family that loads code, reroutes traffic or controls skillgate; it is not passed",
      "exec.grants.group/skill.env names NODE_OPTIONS, which can change how interpreters or shells load code; it is not passed",
      "exec.grants.group/skill.env names PYTHONPATH, which belongs to a family that loads code, reroutes traffic or controls skillgate; it is not passed",
      "exec.grants.group/skill.env names HTTPS_PROXY, which reroutes network traffic; it is not passed",
      "exec.grants.group/skill.env names PATH, which is set by skillgate itself; it is not passed",
      "exec.grants.group/skill.env names UV_CACHE_DIR, which is set by a cache declaration; it is not passed",
      "exec.grants.group/skill.env names bad-name, which is not a valid variable name; it is not passed",
    ]);
    // A declaration alone passes nothing.
    const ungranted = runPlanFor(ExecSchema.parse({}), skill({ "skillgate-env": "API_TOKEN" }), hostEnv);
    expect(ungranted.extraEnv).toEqual({});
  });

  it("maps uv and bun caches under <skillgateHome>/cache", () => {
    const plan = runPlanFor(ExecSchema.parse({}), skill({ "skillgate-cache": "uv, bun, pip" }), hostEnv);
    const uv = join(home, "cache", "uv");
    const bun = join(home, "cache", "bun");
    expect(plan.persistentPaths).toEqual([uv, bun]);
    expect(plan.extraEnv).toEqual({
      UV_CACHE_DIR: join(uv, "cache"),
      UV_PYTHON_INSTALL_DIR: join(uv, "python"),
      UV_PYTHON_BIN_DIR: join(uv, "bin"),
      UV_TOOL_DIR: join(uv, "tools"),
      UV_TOOL_BIN_DIR: join(uv, "bin"),
      BUN_INSTALL: bun,
      BUN_INSTALL_CACHE_DIR: join(bun, "install", "cache"),
      BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(bun, "transpiler"),
    });
    expect(plan.warnings).toEqual([
      "skill 'group/skill': metadata skillgate-cache names 'pip'; known caches are uv, bun",
    ]);
  });
});
