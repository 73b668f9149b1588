// The status report built from engine state, and its model text: finished, skills disabled, and a gated stage.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/schema.js";
import { emptyState } from "../../runtime/evidence/index.js";
import { renderStatusText, type StatusInput, statusReport } from "../../runtime/stage/status-render.js";
import type { StageView } from "../../runtime/stage/types.js";

const stages = ConfigSchema.parse({
  stage: [
    { name: "review", skill_list: ["./a/x/"] },
    { name: "summary", force_use_skill: false },
  ],
}).stage;
const ledger = { health: "ok", records: 2, fingerprint: "ed25519:k", binding: null };

function input(extra: Partial<StatusInput>): StatusInput {
  return {
    description: "",
    stages,
    state: emptyState(),
    view: null,
    gateApplies: false,
    gate: null,
    skillsEnabled: true,
    skillRootMissing: false,
    checkReason: "",
    usageReason: "",
    skills: {},
    ledger,
    ...extra,
  };
}

describe("statusReport", () => {
  it("a finished workflow: every stage completed, no current-stage fields", () => {
    const state = { ...emptyState(), finished: true, stageIndex: 2 };
    const report = statusReport(input({ state }));
    expect(report).toEqual({
      stages: [
        { index: 0, name: "review", status: "completed", force_use_skill: true, skill_list: ["a/x"] },
        { index: 1, name: "summary", status: "completed", force_use_skill: false, skill_list: [] },
      ],
      current_stage_index: null,
      current_stage_name: null,
      finished: true,
      skills_enabled: true,
      ledger,
    });
    expect(renderStatusText(report)).toBe(
      [
        "Progress: 2/2 stages completed; the workflow is finished.",
        "Stages:",
        "  [x] 0. review (completed)",
        "  [x] 1. summary (completed)",
        "Evidence ledger: ok (2 records, key ed25519:k).",
      ].join("\n"),
    );
  });

  it("skills disabled: no skill lists, no gate, and the text says to work from tasks and checkers", () => {
    const view: StageView = {
      index: 0,
      config: stages[0]!,
      tasks: ["Do it"],
      skillList: [],
      evidence: {},
      checkPassed: false,
      usageValidated: false,
    };
    const report = statusReport(
      input({ view, skillsEnabled: false, description: "Review", checkReason: "the last `Check` failed" }),
    );
    expect(report.stages.map((s) => s.skill_list)).toEqual([[], []]);
    expect(report.gate).toEqual({ applies: false });
    expect(renderStatusText(report)).toBe(
      [
        "Progress: 0/2 stages completed; current stage 0: 'review'.",
        "Stages:",
        "  [>] 0. review (current)",
        "  [ ] 1. summary (pending)",
        "Description: Review",
        "Tasks:",
        "  - Do it",
        "Skills: skill support is disabled; complete the stage from its tasks and checkers.",
        "Check: not passed (the last `Check` failed).",
        "Evidence ledger: ok (2 records, key ed25519:k).",
      ].join("\n"),
    );
  });

  it("a satisfied gate says to call Complete", () => {
    const view: StageView = {
      index: 0,
      config: stages[0]!,
      tasks: [],
      skillList: ["a/x"],
      evidence: { "a/x": { list: true, read: true, use: true } },
      checkPassed: true,
      usageValidated: true,
    };
    const report = statusReport(
      input({
        view,
        gateApplies: true,
        gate: { ok: true },
        skills: { "a/x": { skillFile: ".ucagent/skills/a/x/SKILL.md", scripts: [], present: true } },
      }),
    );
    expect(report.gate).toEqual({ applies: true, ok: true });
    expect(report.skills).toEqual([
      {
        id: "a/x",
        listed: true,
        read: true,
        used: true,
        not_applicable: false,
        read_coverage: expect.any(String),
        present: true,
      },
    ]);
    expect(renderStatusText(report).split("\n").slice(4)).toEqual([
      "Stage skills (Complete is gated on them):",
      "  - a/x: Listed yes, Read yes, Used yes, Not Applicable no",
      "Check: passed for the current evidence and outputs.",
      "SetSkillUsage: validated.",
      "Skill gate: satisfied; call `Complete`.",
      "Evidence ledger: ok (2 records, key ed25519:k).",
    ]);
  });
});
