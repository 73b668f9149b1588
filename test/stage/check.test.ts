import { afterEach, describe, expect, it } from "vitest";
import {
  cleanup,
  collectAll,
  forcedStage,
  PLAIN_STAGE,
  SCRIPT,
  SCRIPT_LINES,
  setup,
  TEXT,
  TEXT_LINES,
  USED,
  writeReport,
  ws,
} from "./engine-fixture.js";
import { wholeFile } from "./helpers.js";

afterEach(cleanup);

describe("Check", () => {
  it("evidence recorded after a passing Check requires a new Check", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
    await engine.recordRead(SCRIPT, wholeFile(SCRIPT_LINES));
    await engine.check();
    await engine.recordUse([SCRIPT], {});
    expect((await engine.current())?.checkPassed).toBe(false);
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.text).toContain(
      "- the current evidence has not passed `Check` since it last changed (new ListSkill/ReadTextFile/RunSkillScript evidence was recorded after the last `Check`).",
    );
  });

  it("only evidence that changes a flag invalidates Check: a partial read does not, completing the read does", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    await engine.check();
    await engine.recordList([TEXT, SCRIPT]);
    await engine.recordRead(TEXT, { startLine: 1, endLine: 4, totalLines: TEXT_LINES });
    expect((await engine.current())?.checkPassed).toBe(true);
    await engine.recordRead(TEXT, { startLine: 5, endLine: TEXT_LINES, totalLines: TEXT_LINES });
    expect((await engine.current())?.checkPassed).toBe(false);
  });

  it("an artifact edited after Check must be checked again", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    await engine.check();
    await writeReport("# Report\n\nEdited after Check.\n");
    expect((await engine.current())?.checkPassed).toBe(false);
    const rejected = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(rejected.text).toContain("(output files changed after the last `Check`: out/report.md).");
    await engine.check();
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
    await writeReport("# Report\n\nEdited after SetSkillUsage.\n");
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_USAGE_NOT_VALIDATED");
    expect(complete.text).toContain(
      "output files changed after the `Check` that SetSkillUsage relied on: out/report.md",
    );
    await engine.check();
    await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect((await engine.complete()).isError).toBe(false);
  });

  it("Checker failures stop at the first failing checker and say what to fix", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    await writeReport("no heading here\n");
    const engine = await ws!.engine();
    const check = await engine.check();
    expect(check.code).toBe("CHECK_FAILED");
    expect(check.text).toBe(
      [
        "Stage 0 ('review') check failed at checker 2/2 (markdown_headings): markdown_headings: out/report.md is missing the heading line(s) '# Report'; add each as a line of its own, exactly as written.",
        "Please fix the issues reported above, and then use the `Check` tool again to re-validate your work.",
      ].join("\n"),
    );
  });
});
