// Status through the registry: progress, stages from 0, the current stage's tasks and skill evidence; skills on, off, missing.
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { GATE_SKILL } from "./helpers.js";
import { useStageSessions } from "./stage-fixture.js";

const stages = useStageSessions();
const HEAD = [
  "Progress: 0/2 stages completed; current stage 0: 'report'.",
  "Stages:",
  "  [>] 0. report (current)",
  "  [ ] 1. summary (pending)",
  "Description: Produce the report with the gate skill.",
  "Tasks:",
  "  - Run make_report.py of the gate skill, then Check, SetSkillUsage and Complete.",
];

describe("Status", () => {
  it("skills enabled: the stage skills' evidence, Check and SetSkillUsage state, and what Complete needs", async () => {
    const { session } = await stages.open("enabled");
    const status = await callTool(session, "Status", {});
    expect(status.isError).toBe(false);
    const lines = status.text.split("\n");
    expect(lines.slice(0, HEAD.length)).toEqual(HEAD);
    expect(lines.slice(HEAD.length, HEAD.length + 6)).toEqual([
      "Stage skills (Complete is gated on them):",
      `  - ${GATE_SKILL}: Listed no, Read no (no lines read yet), Used no, Not Applicable no`,
      "Check: not passed (`Check` has not run on the current evidence of this stage).",
      "SetSkillUsage: not validated (SetSkillUsage has not accepted a usage report in this stage).",
      "Before Complete:",
      `  - ${GATE_SKILL}: call \`ListSkill\`; read .ucagent/skills/fixture/gate-skill/SKILL.md with \`ReadTextFile\`; run its script with \`RunSkillScript\` (or report use: false with a reason via \`SetSkillUsage\`)`,
    ]);
    expect(status.structured).toMatchObject({
      current_stage_index: 0,
      current_stage_name: "report",
      finished: false,
      skills_enabled: true,
      ledger: { health: "ok" },
    });
  });

  it("skills disabled: the same stages, and a line saying the stage completes from tasks and checkers", async () => {
    const { session } = await stages.open("disabled");
    const status = await callTool(session, "Status", {});
    expect(status.isError).toBe(false);
    const lines = status.text.split("\n");
    expect(lines.slice(0, HEAD.length)).toEqual(HEAD);
    expect(lines[HEAD.length]).toBe(
      "Skills: skill support is disabled; complete the stage from its tasks and checkers.",
    );
    expect(status.structured).toMatchObject({ skills_enabled: false, current_stage_index: 0 });
  });

  it("skill folder missing: marks the stage skill missing and says how to restore the folder", async () => {
    const { session } = await stages.open("folder missing");
    const status = await callTool(session, "Status", {});
    expect(status.isError).toBe(false);
    expect(status.text).toContain(
      `  - ${GATE_SKILL}: Listed no, Read no (no lines read yet), Used no, Not Applicable no [missing from the workspace skill folder]\n` +
        "  The workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder",
    );
    expect(status.text).toContain(
      `  - ${GATE_SKILL}: missing, with the whole skill folder (restore it as said above)`,
    );
  });

  it("refuses arguments: it takes none", async () => {
    const { session } = await stages.open("enabled");
    expect(await callTool(session, "Status", { verbose: true })).toMatchObject({
      isError: true,
      code: "INVALID_ARGS",
      text: "Invalid arguments for Status: unknown field(s) 'verbose'. Fix the call and try again, e.g. Status {}.",
    });
  });
});
