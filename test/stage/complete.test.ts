// The Complete verb: the skill gate of a forced stage, stages that never block, and a deleted skill folder.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RESTORE_SKILLS_HINT } from "../../runtime/evidence/index.js";
import { skillsDisabledResult } from "../../runtime/stage/results.js";
import {
  cleanup,
  collectAll,
  forcedStage,
  markerCount,
  PLAIN_STAGE,
  SCRIPT,
  SCRIPT_LINES,
  setup,
  TEXT,
  TEXT_LINES,
  USED,
  ws,
} from "./engine-fixture.js";
import { wholeFile } from "./helpers.js";

afterEach(cleanup);

describe("Complete on a forced stage", () => {
  it("with no evidence: Check passes, Complete fails SKILL_USAGE_INCOMPLETE and runs no checker", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    const check = await engine.check();
    expect(check.isError).toBe(false);
    expect(check.text).toContain("Congratulations! Stage 0 checks passed successfully");
    expect(check.structured.next_action).toBe("ListSkill({})");
    expect(check.text).toContain(
      "This stage has a skill gate: before `Complete`, gather the missing skill evidence; next: ListSkill({})",
    );
    const before = await markerCount();
    expect(before).toBe(1);
    const complete = await engine.complete();
    expect(complete.isError).toBe(true);
    expect(complete.code).toBe("SKILL_USAGE_INCOMPLETE");
    expect(await markerCount()).toBe(before);
    expect(complete.structured.checkers_run).toBe(0);
    // A required skill without evidence leads to the tool that gathers it, never to a use:false claim.
    expect(complete.structured.next_action).toBe("ListSkill({})");
    expect(complete.text).toBe(
      [
        "Use tool `ListSkill` to list skill review/text-method before completing this stage. Stage 'review' has incomplete skill evidence (no checker was run):",
        `- ${TEXT}: Listed no, Read no, Used no, Not Applicable no -> call \`ListSkill\`; read .ucagent/skills/${TEXT}/SKILL.md with \`ReadTextFile\`; apply its method, then report use: true with \`SetSkillUsage\` (or use: false with a reason)`,
        `- ${SCRIPT}: Listed no, Read no, Used no, Not Applicable no -> call \`ListSkill\`; read .ucagent/skills/${SCRIPT}/SKILL.md with \`ReadTextFile\`; run its script with \`RunSkillScript\` (or report use: false with a reason via \`SetSkillUsage\`)`,
        "Next: ListSkill({}); then `Check` and record the usage with `SetSkillUsage`.",
      ].join("\n"),
    );
    expect((await engine.current())?.index).toBe(0);
  });

  it("list + read + Check + SetSkillUsage(use true) lets Complete pass and advance", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    expect((await engine.check()).isError).toBe(false);
    const usage = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(usage.isError).toBe(false);
    expect(usage.text).toBe(
      `All skills in skill_list have been used. SetSkillUsage accepted for stage 'review': ${TEXT}: Used; ${SCRIPT}: Used. Next: call \`Complete\`.`,
    );
    const view = await engine.current();
    expect(view?.usageValidated).toBe(true);
    expect(view?.evidence[TEXT]).toEqual({ list: true, read: true, use: true });
    const complete = await engine.complete();
    expect(complete.isError).toBe(false);
    expect(complete.text).toContain("Stage 0 completed successfully. Current stage index is now 1: 'plain'.");
    expect((await engine.current())?.config.name).toBe("plain");
  });

  it("use:false with a reason becomes Not Applicable and Complete passes", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
    await engine.recordRead(SCRIPT, wholeFile(SCRIPT_LINES));
    await engine.check();
    const usage = await engine.setSkillUsage({
      [TEXT]: USED,
      [SCRIPT]: { list: true, read: true, use: false, reason: "the target has no Python code" },
    });
    expect(usage.text).toContain(`${SCRIPT}: Not Applicable (reason: the target has no Python code)`);
    const status = await engine.status();
    expect(status.text).toContain(
      `  - ${SCRIPT}: Listed yes, Read yes, Used no, Not Applicable yes (the target has no Python code)`,
    );
    expect((await engine.current())?.evidence[SCRIPT]?.notApplicableReason).toBe(
      "the target has no Python code",
    );
    expect((await engine.complete()).isError).toBe(false);
  });

  it("use evidence after a validated Not Applicable makes Complete fail NOT_VALIDATED", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
    await engine.recordRead(SCRIPT, wholeFile(SCRIPT_LINES));
    await engine.check();
    const na = { list: true, read: true, use: false, reason: "not needed" };
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: na })).isError).toBe(false);
    await engine.recordUse([SCRIPT], { commands: [] });
    const before = await markerCount();
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_USAGE_NOT_VALIDATED");
    expect(await markerCount()).toBe(before);
    expect(complete.text).toContain(
      "skill usage is not validated for the current evidence (new ListSkill/ReadTextFile/RunSkillScript evidence was recorded after SetSkillUsage accepted the usage); no checker was run.",
    );
    // The old Not Applicable claim now contradicts the evidence.
    await engine.check();
    const again = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: na });
    expect(again.code).toBe("SKILL_USAGE_REJECTED");
    expect(again.text).toContain(`skill_usage['${SCRIPT}'].use is false but RunSkillScript ran the scripts`);
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
    expect((await engine.complete()).isError).toBe(false);
  });
});

describe("stages that never block on skills", () => {
  it("an optional stage (force_use_skill: false) completes without evidence", async () => {
    await setup([{ ...forcedStage(), force_use_skill: false }, PLAIN_STAGE]);
    const engine = await ws!.engine();
    expect((await engine.complete()).isError).toBe(false);
    expect(await markerCount()).toBe(1);
  });

  it("with skills disabled a forced stage completes without evidence and SetSkillUsage says so", async () => {
    await setup([forcedStage(), PLAIN_STAGE], { skillsEnabled: false });
    const engine = await ws!.engine();
    const usage = await engine.setSkillUsage({ [TEXT]: USED });
    // The one wording of the tool layer, whether called through callTool or on the engine directly.
    expect(usage).toEqual(skillsDisabledResult("SetSkillUsage"));
    const view = await engine.current();
    expect(view?.skillList).toEqual([]);
    await engine.recordList([TEXT]);
    expect((await engine.ledger.read()).state.skills).toEqual({});
    expect((await engine.complete()).isError).toBe(false);
  });

  it("a stage without skill_list has nothing to record", async () => {
    await setup([PLAIN_STAGE]);
    const engine = await ws!.engine();
    const usage = await engine.setSkillUsage({ [TEXT]: USED });
    expect(usage.text).toBe(
      "No skill need be used in current stage: stage 'plain' has no skill_list, so there is nothing to record. Next: call `Check`, then `Complete`.",
    );
    const complete = await engine.complete();
    expect(complete.text).toBe(
      "All stages completed successfully. Now you should review your work to check if everything is correct and all the users needs are matched.",
    );
    expect(await engine.current()).toBeNull();
    expect((await engine.complete()).code).toBe("WORKFLOW_FINISHED");
  });
});

describe("skill folder deleted mid-workflow", () => {
  it("Check still works and Complete explains how to restore the skills", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    await rm(ws!.paths.skillsDir, { recursive: true, force: true });
    expect((await engine.check()).isError).toBe(false);
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_ROOT_MISSING");
    expect(complete.text).toBe(
      `Complete: stage 'review' names skills, but the workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT} Check still works meanwhile.`,
    );
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).code).toBe("SKILL_ROOT_MISSING");
  });

  it("one deleted stage skill is named with the fix", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    await engine.check();
    await rm(join(ws!.paths.skillsDir, "review", "script-method"), { recursive: true, force: true });
    const usage = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(usage.text).toContain(
      `- skill '${SCRIPT}' of this stage is not in the workspace skill folder (.ucagent/skills/${SCRIPT}/SKILL.md is missing or no longer parses). ${RESTORE_SKILLS_HINT}`,
    );
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_NOT_FOUND");
    expect(complete.text.split("\n")[0]).toBe(
      "Stage 'review' cannot complete: its skill gate needs skills that are missing from the workspace.",
    );
    const status = await engine.status();
    expect(status.text).toContain(
      `  - ${SCRIPT}: missing from the workspace skill folder. ${RESTORE_SKILLS_HINT}`,
    );
    expect(status.text).not.toContain(`  - ${SCRIPT}: call`);
  });
});
