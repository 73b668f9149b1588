// The binding check (bind-check.ts): what runs versus what the ledger binds, the exact refusals, and the bind record drafted for a change.
import { describe, expect, it } from "vitest";
import {
  type Binding,
  type BoundStage,
  bindingChanges,
  bindingRefusal,
  bindRecord,
  type CurrentBinding,
  digestsOf,
  emptyState,
} from "../../runtime/evidence/index.js";

const stage = (over: Partial<BoundStage> = {}): BoundStage => ({
  name: "build",
  skill_list: ["grp/a"],
  force_use_skill: true,
  checker: [],
  output_files: [],
  ...over,
});
const current = (over: Partial<CurrentBinding> = {}): CurrentBinding => ({
  workflow: { stages: [stage(), stage({ name: "test", skill_list: ["grp/b"] })] },
  manifest: { "grp/a/SKILL.md": "11", "grp/b/SKILL.md": "22" },
  useSkill: true,
  ...over,
});
const bound = (from: CurrentBinding = current()): Binding => ({
  seq: 3,
  ...digestsOf(from),
  workflow: from.workflow,
  manifest: from.manifest,
  useSkill: from.useSkill,
  reason: "init",
});
const FIX =
  "run `skillgate init /ws`: it records the change in the ledger and resets the evidence of the affected stages (or undo the change)";

describe("bindingChanges and bindingRefusal", () => {
  it("nothing changed: no refusal, and nothing without a binding yet", () => {
    expect(bindingChanges(bound(), current())).toEqual({ workflow: [], pack: [], useSkill: false });
    expect(bindingRefusal(bound(), current(), "/ws")).toBeNull();
    expect(bindingRefusal(null, current({ useSkill: false }), "/ws")).toBeNull();
  });

  it.each<[string, CurrentBinding, { code: string; changes: string[]; message: string }]>([
    [
      "a stage's gate turned off",
      current({
        workflow: {
          stages: [stage({ force_use_skill: false }), stage({ name: "test", skill_list: ["grp/b"] })],
        },
      }),
      {
        code: "WORKFLOW_CHANGED",
        changes: ["stage 0 'build': force_use_skill true -> false"],
        message: `The workflow changed since init bound it to the evidence ledger: stage 0 'build': force_use_skill true -> false. Check, SetSkillUsage and Complete are refused until the change is recorded: ${FIX}. An MCP server started before another process re-ran init must be restarted.`,
      },
    ],
    [
      "skill support switched off in a config file",
      current({ useSkill: false }),
      {
        code: "WORKFLOW_CHANGED",
        changes: ["skill.use_skill true -> false (set in a config file)"],
        message: `The workflow changed since init bound it to the evidence ledger: skill.use_skill true -> false (set in a config file). Check, SetSkillUsage and Complete are refused until the change is recorded: ${FIX}. An MCP server started before another process re-ran init must be restarted.`,
      },
    ],
    [
      "a pack file edited",
      current({ manifest: { "grp/a/SKILL.md": "99", "grp/b/SKILL.md": "22" } }),
      {
        code: "PACK_CHANGED",
        changes: ["changed: grp/a/SKILL.md"],
        message: `The init manifest (.ucagent/skillgate/manifest.json) differs from the one bound in the evidence ledger (changed: grp/a/SKILL.md). Check, SetSkillUsage and Complete are refused until the change is recorded: ${FIX}; init copies the pack again and records its hashes.`,
      },
    ],
  ])("%s", (_name, now, refusal) => {
    expect(bindingRefusal(bound(), now, "/ws")).toEqual(refusal);
  });

  it("a workflow change is reported before a pack change made at the same time", () => {
    const both = current({
      workflow: { stages: [stage({ name: "compile" }), stage({ name: "test", skill_list: ["grp/b"] })] },
      manifest: {},
    });
    expect(bindingRefusal(bound(), both, "/ws")?.code).toBe("WORKFLOW_CHANGED");
    expect(bindingChanges(bound(), both).pack).toEqual(["removed: grp/a/SKILL.md, grp/b/SKILL.md"]);
  });
});

describe("bindRecord", () => {
  it("the first bind records what runs, with no changes and no stage reset", () => {
    const state = emptyState();
    const { record, affected, changes } = bindRecord(state, current(), "init");
    expect(affected).toEqual([]);
    expect(changes).toEqual([]);
    expect(record).toEqual({
      stage: 0,
      kind: "bind",
      data: {
        ...digestsOf(current()),
        workflow: current().workflow,
        manifest: current().manifest,
        useSkill: true,
        reason: "init",
        changes: [],
        affectedStages: [],
      },
    });
  });

  it("a later bind names every change and the stages it touches", () => {
    const state = { ...emptyState(), stageIndex: 1, binding: bound() };
    const now = current({
      workflow: {
        stages: [stage(), stage({ name: "test", skill_list: ["grp/b"], output_files: ["out/t.md"] })],
      },
      manifest: { "grp/a/SKILL.md": "12", "grp/b/SKILL.md": "22" },
      useSkill: false,
    });
    const { record, affected, changes } = bindRecord(state, now, "init --adopt");
    expect(changes).toEqual([
      "stage 1 'test': output_files [] -> [\"out/t.md\"]",
      "skill pack changed: grp/a/SKILL.md",
      "skill support on -> off",
    ]);
    expect(affected).toEqual([0, 1]);
    expect(record.stage).toBe(1);
    expect(record.data).toMatchObject({
      reason: "init --adopt",
      useSkill: false,
      affectedStages: [0, 1],
      changes,
    });
  });
});
