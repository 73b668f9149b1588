// The shared state of one stage engine (context.ts): the current stage, its output fingerprint warnings, the binding guard and the finished answer.
import { execFileSync } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { emptyState } from "../../runtime/evidence/index.js";
import { StageContext } from "../../runtime/stage/context.js";
import { makeWorkspace, type TestWorkspace } from "./helpers.js";

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

const STAGES = [
  {
    name: "review",
    task: ["Write out/report.md"],
    output_files: ["out/report.md"],
    checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
    skill_list: ["review/text-method"],
  },
  { name: "ship", task: ["Ship"], checker: [] },
];

function contextOf(workspace: TestWorkspace): StageContext {
  return new StageContext({
    paths: workspace.paths,
    config: workspace.config,
    runtime: workspace.runtime,
    skillsEnabled: workspace.skillsEnabled,
    catalog: workspace.catalog,
    home: workspace.home,
  });
}

describe("StageContext", () => {
  it("the current stage by index; none once finished or past the end; a renamed stage is warned about once", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    const ctx = contextOf(ws);
    expect(ctx.stageAt(emptyState())).toEqual({ index: 0, config: ws.config.stage[0] });
    expect(ctx.stageAt({ ...emptyState(), finished: true })).toBeNull();
    expect(ctx.stageAt({ ...emptyState(), stageIndex: 2 })).toBeNull();
    const renamed = { ...emptyState(), stageIndex: 1, stageName: "deploy" };
    expect(ctx.stageAt(renamed)?.config.name).toBe("ship");
    expect(ctx.stageAt(renamed)?.index).toBe(1);
    expect(ctx.warnings.drain()).toEqual([
      "the workflow changed: progress says stage 1 is 'deploy' but the config now has 'ship' there; continuing with 'ship'.",
    ]);
  });

  it("skills off: no stage skills and no gate; on: the normalised list and the gate of a forced stage", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    const on = contextOf(ws);
    expect(on.skillList(0)).toEqual(["review/text-method"]);
    expect(on.gateApplies(0)).toBe(true);
    expect(on.gateApplies(1)).toBe(false);
    const off = new StageContext({ ...on.o, skillsEnabled: false });
    expect(off.skillList(0)).toEqual([]);
    expect(off.gateApplies(0)).toBe(false);
    expect(off.gateFor(emptyState(), 0, { hash: "", files: {}, problems: [] })).toBeNull();
  });

  it("a missing skill folder is a workflow diagnostic only while skills are on", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    await rm(ws.paths.skillsDir, { recursive: true, force: true });
    expect(contextOf(ws).diagnostics.map((d) => d.code)).toEqual(["SKILL_ROOT_MISSING"]);
    const off = new StageContext({ ...contextOf(ws).o, skillsEnabled: false });
    expect(off.diagnostics).toEqual([]);
  });

  it("an output that cannot be fingerprinted is warned about once per result, however often it is fingerprinted", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    execFileSync("mkfifo", [join(ws.root, "out", "report.md")]);
    const ctx = contextOf(ws);
    const first = await ctx.outputs(ws.config.stage[0]!);
    await ctx.outputs(ws.config.stage[0]!);
    expect(first.files).toEqual({ "out/report.md": "not-regular:fifo" });
    expect(ctx.warnings.drain()).toEqual([
      "output out/report.md is a fifo, not a regular file: it was not read or fingerprinted; write a regular file there",
    ]);
  });

  it("the binding guard refuses when what runs is not what the ledger binds, naming the change and the fix", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    await ws.engine();
    const ctx = contextOf(ws);
    const state = (await ctx.load()).state;
    expect(state.binding?.workflow.stages.map((s) => s.name)).toEqual(["review", "ship"]);
    expect(await ctx.bindingGuard(state)).toBeNull();
    ctx.bound = {
      workflow: { stages: state.binding!.workflow.stages.slice(0, 1) },
      manifest: {},
      useSkill: true,
    };
    const refused = await ctx.bindingGuard(state);
    expect(refused).toMatchObject({
      isError: true,
      code: "WORKFLOW_CHANGED",
      structured: { changes: ["stage 1 'ship' was removed"], fix: `skillgate init ${ws.root}` },
    });
    expect(refused?.text).toContain(
      "The workflow changed since init bound it to the evidence ledger: stage 1 'ship' was removed.",
    );
  });

  it("after the last stage every verb is answered WORKFLOW_FINISHED with the next step", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    expect(contextOf(ws).finishedResult("Complete")).toMatchObject({
      isError: true,
      code: "WORKFLOW_FINISHED",
      text: "Complete: no more stages to complete; all 2 stage(s) of the workflow are completed. Review your work; call `Status` to see the stages.",
      structured: { finished: true },
    });
  });

  it("the stage view: tasks, per-skill evidence, and neither Check nor usage fresh before any Check", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    const ctx = contextOf(ws);
    const view = await ctx.view(emptyState(), 0, { hash: "h", files: {}, problems: [] });
    expect(view).toMatchObject({
      index: 0,
      tasks: ["Write out/report.md"],
      skillList: ["review/text-method"],
      checkPassed: false,
      usageValidated: false,
    });
    expect(Object.keys(view.evidence)).toEqual(["review/text-method"]);
    expect(view.evidence["review/text-method"]).toMatchObject({ list: false, read: false, use: false });
  });
});
