// Skill hooks: loaded once per stage instance and per process, idempotent across re-entries and restarts, failures isolated.
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callOn, makeWorkspace, type TestWorkspace } from "./helpers.js";

interface Counters {
  modules: number;
  setups: number;
}
const counters = () =>
  ((globalThis as Record<string, unknown>).__skillgateHookCounters as Counters | undefined) ?? {
    modules: 0,
    setups: 0,
  };

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

const PASSING = [{ kind: "file_exists", args: { path: "out/report.md" } }];

describe("skill hooks", () => {
  it("load once across 5 re-entries and a restart, and shape the tasks exactly once", async () => {
    ws = await makeWorkspace({
      stages: [
        {
          name: "hooked",
          task: ["Base task"],
          skill_list: ["hooked/adds-task"],
          force_use_skill: false,
          checker: PASSING,
        },
        { name: "after", task: ["Later"], checker: PASSING },
      ],
    });
    await writeFile(join(ws.root, "out", "report.md"), "x");
    const start = counters();
    const engine = await ws.engine();
    for (let i = 0; i < 5; i++) {
      const view = await engine.current();
      expect(view?.tasks).toEqual(["Base task", "Hooked task for hooked"]);
    }
    expect(counters().modules - start.modules).toBe(1);
    expect(counters().setups - start.setups).toBe(1);
    const restarted = await ws.engine();
    expect((await restarted.current())?.tasks).toEqual(["Base task", "Hooked task for hooked"]);
    expect((await restarted.status()).text).toContain("  - Hooked task for hooked");
    // A new engine has a new stage instance: setupStage runs for it once; the module is not evaluated again.
    expect(counters().setups - start.setups).toBe(2);
    expect(counters().modules - start.modules).toBe(1);
    // Completing the stage moves on; the next stage has no hooks.
    expect((await restarted.complete()).isError).toBe(false);
    expect((await restarted.current())?.tasks).toEqual(["Later"]);
  });

  it("general skills' hooks load after stage skills' hooks, on every stage", async () => {
    ws = await makeWorkspace({
      stages: [{ name: "plain", desc: "Plain stage", task: ["T"], checker: PASSING }],
      generalSkills: ["hooked/second"],
    });
    const engine = await ws.engine();
    const instance = await engine.stageInstance(0);
    expect(instance?.safeDescribe()).toBe("[hooked] Plain stage");
    expect((await engine.status()).text).toContain("Description: [hooked] Plain stage");
  });

  it("a throwing hook and an unknown method are reported and skipped; other hooks still load", async () => {
    ws = await makeWorkspace({
      stages: [
        {
          name: "mixed",
          desc: "Mixed",
          task: ["Base task"],
          skill_list: ["hooked/throws", "hooked/unknown-method", "hooked/adds-task"],
          force_use_skill: false,
          checker: PASSING,
        },
      ],
      generalSkills: ["hooked/second"],
    });
    const engine = await ws.engine();
    const view = await engine.current();
    expect(view?.tasks).toEqual(["Base task", "Hooked task for mixed"]);
    const warnings = engine.drainWarnings();
    const throwsFile = join(ws.paths.skillsDir, "hooked", "throws", "hooks.ts");
    const unknownFile = join(ws.paths.skillsDir, "hooked", "unknown-method", "hooks.ts");
    expect(warnings).toEqual([
      `hooks.ts of skill 'hooked/throws' (${throwsFile}): setupStage threw: hook exploded on purpose; its hooks were skipped, other hooks still apply.`,
      `hooks.ts of skill 'hooked/unknown-method' (${unknownFile}): setupStage threw: addHook('launchRockets') names an unknown stage method (hookable: getTasks, describe, onCheck); its hooks were skipped, other hooks still apply.`,
    ]);
    expect((await engine.stageInstance(0))?.safeDescribe()).toBe("[hooked] Mixed");
  });

  it("warnings from hooks reach the next tool result", async () => {
    ws = await makeWorkspace({
      stages: [
        {
          name: "s",
          task: ["Base"],
          skill_list: ["hooked/throws"],
          force_use_skill: false,
          checker: PASSING,
        },
      ],
    });
    await writeFile(join(ws.root, "out", "report.md"), "x");
    const engine = await ws.engine();
    await engine.current();
    const result = await callOn(ws, engine, "Check");
    expect(result.text).toContain("Warning: hooks.ts of skill 'hooked/throws'");
    expect(result.structured.warnings).toHaveLength(1);
    expect((await callOn(ws, engine, "Check")).structured.warnings).toBeUndefined();
  });

  it("a hooks.ts modified after init is not loaded", async () => {
    ws = await makeWorkspace({
      stages: [
        {
          name: "s",
          task: ["Base"],
          skill_list: ["hooked/adds-task"],
          force_use_skill: false,
          checker: PASSING,
        },
      ],
    });
    const file = join(ws.paths.skillsDir, "hooked", "adds-task", "hooks.ts");
    await chmod(file, 0o644);
    await writeFile(
      file,
      'export function setupStage(stage: any) { stage.addHook("getTasks", () => ["forged"]); }\n',
    );
    const engine = await ws.engine();
    expect((await engine.current())?.tasks).toEqual(["Base"]);
    const [warning] = engine.drainWarnings();
    expect(warning).toMatch(
      /^hooks\.ts of skill 'hooked\/adds-task' \(.+\) was not loaded: script hooked\/adds-task\/hooks\.ts was modified after init \(hash [0-9a-f]{12} != [0-9a-f]{12}\); re-run: skillgate init .+$/,
    );
  });

  it("with skills disabled no hook runs and tasks are unchanged", async () => {
    ws = await makeWorkspace({
      stages: [{ name: "hooked", task: ["Base task"], skill_list: ["hooked/adds-task"], checker: PASSING }],
      generalSkills: ["hooked/second"],
      skillsEnabled: false,
    });
    const start = counters().setups;
    const engine = await ws.engine();
    expect((await engine.current())?.tasks).toEqual(["Base task"]);
    expect((await engine.stageInstance(0))?.safeDescribe()).toBe("");
    expect(counters().setups).toBe(start);
  });
});
