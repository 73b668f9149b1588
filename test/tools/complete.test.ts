// Complete through the registry: the skill gate first (no checker run), then the checkers; skills off or gate off.
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { GATE_SKILL } from "./helpers.js";
import { useStageSessions } from "./stage-fixture.js";

const stages = useStageSessions();
const ADVANCED =
  "Stage 0 completed successfully. Current stage index is now 1: 'summary'.\nDescription: Write a summary.\nTasks:\n- Write {OUT}/summary.md.";

describe("Complete", () => {
  it("a forced stage fails on the skill gate before any checker runs, even with its output present", async () => {
    const { fixture, session } = await stages.open("enabled");
    stages.writeReport(fixture);
    const gated = await callTool(session, "Complete", {});
    expect(gated).toMatchObject({ isError: true, code: "SKILL_USAGE_INCOMPLETE" });
    expect(gated.text.split("\n")).toEqual([
      `Use tool \`ListSkill\` to list skill ${GATE_SKILL} before completing this stage. Stage 'report' has incomplete skill evidence (no checker was run):`,
      `- ${GATE_SKILL}: Listed no, Read no, Used no, Not Applicable no -> call \`ListSkill\`; read .ucagent/skills/fixture/gate-skill/SKILL.md with \`ReadTextFile\`; run its script with \`RunSkillScript\` (or report use: false with a reason via \`SetSkillUsage\`)`,
      "Next: ListSkill({}); then `Check` and record the usage with `SetSkillUsage`.",
    ]);
    expect(gated.structured).toMatchObject({ complete: false, stage: { index: 0, name: "report" } });
    expect(gated.structured.checkers).toBeUndefined();
    expect((await callTool(session, "Status", {})).structured.current_stage_index).toBe(0);
  });

  it("with skills disabled only the checkers decide: a failure names the checker, a pass advances", async () => {
    const { fixture, session } = await stages.open("disabled");
    const failed = await callTool(session, "Complete", {});
    expect(failed).toMatchObject({
      isError: true,
      code: "CHECK_FAILED",
      text:
        "Stage 0 not completed. Please check the task requirements.\n" +
        "Checker 1/1 (file_exists) failed: file_exists: out/report.md does not exist; create it as the stage task describes.\n" +
        "Please fix the issues reported above, and then use the `Complete` tool again to complete this stage.",
    });
    stages.writeReport(fixture);
    const done = await callTool(session, "Complete", {});
    expect(done).toMatchObject({ isError: false, text: ADVANCED });
    expect(done.structured).toMatchObject({
      complete: true,
      finished: false,
      next_stage: { index: 1, name: "summary" },
    });
  });

  it("force_use_skill: false leaves the stage skill optional: the checkers alone complete it", async () => {
    const { fixture, session } = await stages.open("enabled", { force: false });
    stages.writeReport(fixture);
    expect(await callTool(session, "Complete", {})).toMatchObject({ isError: false, text: ADVANCED });
  });

  it("with the skill folder missing the forced stage stays gated", async () => {
    const { fixture, session } = await stages.open("folder missing");
    stages.writeReport(fixture);
    const gated = await callTool(session, "Complete", {});
    expect(gated).toMatchObject({ isError: true, code: "SKILL_ROOT_MISSING" });
    expect(gated.text).toContain(
      "the workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .`",
    );
    expect((await callTool(session, "Status", {})).structured.current_stage_index).toBe(0);
  });

  it("refuses arguments: it takes none", async () => {
    const { session } = await stages.open("enabled");
    expect(await callTool(session, "Complete", { force: true })).toMatchObject({
      isError: true,
      code: "INVALID_ARGS",
      text: "Invalid arguments for Complete: unknown field(s) 'force'. Fix the call and try again, e.g. Complete {}.",
    });
  });
});
