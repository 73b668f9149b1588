// Check through the registry: the first failing checker with what to fix, a pass, bad arguments; never gated by skills.
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { type SkillsState, useStageSessions } from "./stage-fixture.js";

const stages = useStageSessions();
const FAILED =
  "Stage 0 ('report') check failed at checker 1/1 (file_exists): file_exists: out/report.md does not exist; create it as the stage task describes.\n" +
  "Please fix the issues reported above, and then use the `Check` tool again to re-validate your work.";

describe("Check", () => {
  it.each(["enabled", "disabled", "folder missing"] as SkillsState[])(
    "skills %s: reports the failing checker, then passes once the output exists",
    async (state) => {
      const { fixture, session } = await stages.open(state);
      const failed = await callTool(session, "Check", {});
      expect(failed).toMatchObject({ isError: true, code: "CHECK_FAILED", text: FAILED });
      expect(failed.structured).toMatchObject({
        check_pass: false,
        failed_checker: 0,
        stage: { index: 0, name: "report" },
      });
      stages.writeReport(fixture);
      const passed = await callTool(session, "Check", {});
      expect(passed.isError).toBe(false);
      expect(passed.text.split("\n").slice(0, 2)).toEqual([
        "Congratulations! Stage 0 checks passed successfully, you can use tool 'Complete' to finish this stage.",
        "- file_exists: 1 path(s) present and non-empty.",
      ]);
      expect(passed.structured).toMatchObject({ check_pass: true, failed_checker: null });
    },
  );

  it("says what the skill gate still needs after a pass, without blocking the pass", async () => {
    const { fixture, session } = await stages.open("enabled");
    stages.writeReport(fixture);
    const passed = await callTool(session, "Check", {});
    expect(passed.isError).toBe(false);
    expect(passed.text.split("\n")[2]).toBe(
      "This stage has a skill gate: before `Complete`, gather the missing skill evidence; next: ListSkill({})",
    );
    expect(passed.structured.next_action).toBe("ListSkill({})");
  });

  it("refuses arguments: it takes none", async () => {
    const { session } = await stages.open("enabled");
    expect(await callTool(session, "Check", { x: 1 })).toMatchObject({
      isError: true,
      code: "INVALID_ARGS",
      text: "Invalid arguments for Check: unknown field(s) 'x'. Fix the call and try again, e.g. Check {}.",
    });
  });
});
