// The stage engine end to end on real workspaces: Check, the Complete skill gate, SetSkillUsage, freshness, resume.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RESTORE_SKILLS_HINT } from "../../runtime/evidence/index.js";
import { callOn, makeWorkspace, type TestWorkspace, wholeFile } from "./helpers.js";

const TEXT = "review/text-method";
const SCRIPT = "review/script-method";

/** A command checker that appends to checker-ran.txt: proves whether Complete ran any checker. */
const MARKER_CHECKER = {
  kind: "command",
  args: { argv: ["node", "-e", "require('fs').appendFileSync('checker-ran.txt', 'x')"] },
};
const REPORT_CHECKER = {
  kind: "markdown_headings",
  args: { path: "{OUT}/report.md", headings: ["# Report"] },
};

function forcedStage(name = "review", skills = [TEXT, SCRIPT]) {
  return {
    name,
    desc: "Review the target",
    task: ["Write out/report.md"],
    output_files: ["{OUT}/report.md"],
    checker: [MARKER_CHECKER, REPORT_CHECKER],
    skill_list: skills,
  };
}
const PLAIN_STAGE = {
  name: "plain",
  task: ["Finish"],
  checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
};

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

async function setup(stages: unknown[], opts: { skillsEnabled?: boolean } = {}) {
  ws = await makeWorkspace({ stages, ...opts });
  await writeReport("# Report\n\nFindings.\n");
  return ws;
}

async function writeReport(text: string): Promise<void> {
  await writeFile(join(ws!.root, "out", "report.md"), text);
}

async function markerCount(): Promise<number> {
  return (await readFile(join(ws!.root, "checker-ran.txt"), "utf8").catch(() => "")).length;
}

const TEXT_LINES = 9;
const SCRIPT_LINES = 7;

async function collectAll(engine: Awaited<ReturnType<TestWorkspace["engine"]>>): Promise<void> {
  await engine.recordList([TEXT, SCRIPT]);
  await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
  await engine.recordRead(SCRIPT, wholeFile(SCRIPT_LINES));
  await engine.recordUse([SCRIPT], { commands: [] });
}

const USED = { list: true, read: true, use: true };

describe("forced stage", () => {
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

  it("claims without records are rejected and change nothing", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.check();
    const before = await engine.current();
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.code).toBe("SKILL_USAGE_REJECTED");
    expect(await engine.current()).toEqual(before);
    expect((await engine.ledger.read()).state.usage).toBeNull();
    expect((await engine.complete()).code).toBe("SKILL_USAGE_INCOMPLETE");
  });

  it("SetSkillUsage before Check is rejected and names Check", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.text).toBe(
      [
        "SetSkillUsage rejected for stage 'review'; nothing was recorded.",
        "- the current evidence has not passed `Check` since it last changed (`Check` has not run on the current evidence of this stage).",
        "Next: call `Check`.",
      ].join("\n"),
    );
    await engine.check();
    await engine.recordList([TEXT]); // already listed: not new evidence
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
  });

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

  it("a text-method use:true is accepted only after list + read + a passing Check", async () => {
    await setup([forcedStage("solo-text", [TEXT]), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT]);
    await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
    expect((await engine.setSkillUsage({ [TEXT]: USED })).code).toBe("SKILL_USAGE_REJECTED");
    await engine.check();
    expect((await engine.setSkillUsage({ [TEXT]: USED })).isError).toBe(false);
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
    expect(usage.isError).toBe(false);
    expect(usage.text).toContain("skill support is disabled");
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

describe("read coverage", () => {
  it("partial reads in the current stage add up; a zero-line read is not a read", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    expect(await engine.recordRead(TEXT, { startLine: 1, endLine: 0, totalLines: TEXT_LINES })).toBe(false);
    expect(await engine.recordRead(TEXT, { startLine: 1, endLine: 4, totalLines: TEXT_LINES })).toBe(false);
    expect((await engine.status()).text).toContain(`Read no (read lines 1-4 of ${TEXT_LINES})`);
    expect(await engine.recordRead(TEXT, { startLine: 6, endLine: 9, totalLines: TEXT_LINES })).toBe(false);
    expect(await engine.recordRead(TEXT, { startLine: 5, endLine: 5, totalLines: TEXT_LINES })).toBe(true);
    expect((await engine.current())?.evidence[TEXT]?.read).toBe(true);
  });

  it("reads of skills outside the stage and reads in an earlier stage do not count", async () => {
    await setup([
      { ...forcedStage("first", [SCRIPT]), force_use_skill: false },
      forcedStage("second", [TEXT]),
    ]);
    const engine = await ws!.engine();
    expect(await engine.recordRead(TEXT, wholeFile(TEXT_LINES))).toBe(false);
    await engine.recordRead(SCRIPT, { startLine: 1, endLine: 3, totalLines: SCRIPT_LINES });
    expect((await engine.complete()).isError).toBe(false);
    const view = await engine.current();
    expect(view?.config.name).toBe("second");
    expect(view?.evidence[TEXT]).toEqual({ list: false, read: false, use: false });
  });
});

describe("persistence", () => {
  it("a new engine resumes the stage with its evidence", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const first = await ws!.engine();
    await collectAll(first);
    await first.check();
    const second = await ws!.engine();
    const view = await second.current();
    expect(view?.evidence[SCRIPT]).toEqual({ list: true, read: true, use: true });
    expect(view?.checkPassed).toBe(true);
    expect((await second.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
    const third = await ws!.engine();
    expect((await third.complete()).isError).toBe(false);
    expect((await (await ws!.engine()).current())?.config.name).toBe("plain");
  });

  it("with resetCheckOnStart a restarted engine starts with checkPassed false", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const first = await ws!.engine();
    await collectAll(first);
    await first.check();
    const restarted = await ws!.engine({ resetCheckOnStart: true });
    const view = await restarted.current();
    expect(view?.checkPassed).toBe(false);
    expect(view?.evidence[TEXT]).toEqual({ list: true, read: true, use: false });
  });
});

describe("tampering seen through the engine", () => {
  it("forged evidence appended to the ledger is dropped and the next tool result warns", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    const lines = (await readFile(ws!.paths.ledger, "utf8")).trim().split("\n");
    const last = JSON.parse(lines[lines.length - 1]!);
    const forged = {
      ...last,
      seq: last.seq + 1,
      prev: last.hash,
      kind: "read",
      data: { skill: TEXT, startLine: 1, endLine: 9, totalLines: 9 },
    };
    await writeFile(ws!.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    const status = await callOn(ws!, engine, "Status");
    expect(status.text).toContain(
      `Warning: evidence ledger ${ws!.paths.ledger}: record ${forged.seq} content does not match its hash (edited)`,
    );
    expect(status.structured.warnings).toHaveLength(1);
    // The forged line is quarantined (kept, not applied) and the stage's evidence must be collected again.
    expect((await engine.current())?.evidence[TEXT]).toEqual({ list: false, read: false, use: false });
  });

  it("a progress file edited to claim evidence is rebuilt from the ledger with a warning", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    const progress = JSON.parse(await readFile(ws!.paths.progress, "utf8"));
    progress.state.skills[TEXT] = { list: true, read: true, use: true, readRanges: [[1, 9]], totalLines: 9 };
    await writeFile(ws!.paths.progress, JSON.stringify(progress));
    const result = await callOn(ws!, engine, "Check");
    expect(result.text).toContain(
      `Warning: the progress checkpoint ${ws!.paths.progress} failed verification`,
    );
    expect((await engine.current())?.evidence[TEXT]).toEqual({ list: true, read: false, use: false });
  });
});

describe("Status", () => {
  it("shows stages, the current stage and per-skill flags; disabled and missing-folder variants", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT]);
    const status = await engine.status();
    expect(status.text).toBe(
      [
        "Progress: 0/2 stages completed; current stage 0: 'review'.",
        "Stages:",
        "  [>] 0. review (current)",
        "  [ ] 1. plain (pending)",
        "Description: Review the target",
        "Tasks:",
        "  - Write out/report.md",
        "Stage skills (Complete is gated on them):",
        `  - ${TEXT}: Listed yes, Read no (no lines read yet), Used no, Not Applicable no`,
        `  - ${SCRIPT}: Listed no, Read no (no lines read yet), Used no, Not Applicable no`,
        "Check: not passed (`Check` has not run on the current evidence of this stage).",
        "SetSkillUsage: not validated (SetSkillUsage has not accepted a usage report in this stage).",
        "Before Complete:",
        `  - ${TEXT}: read .ucagent/skills/${TEXT}/SKILL.md with \`ReadTextFile\`; apply its method, then report use: true with \`SetSkillUsage\` (or use: false with a reason)`,
        `  - ${SCRIPT}: call \`ListSkill\`; read .ucagent/skills/${SCRIPT}/SKILL.md with \`ReadTextFile\`; run its script with \`RunSkillScript\` (or report use: false with a reason via \`SetSkillUsage\`)`,
        "  - next: ListSkill({}), then `Check` and `SetSkillUsage`",
        `Evidence ledger: ok (4 records, key ${(status.structured.ledger as { fingerprint: string }).fingerprint}, workflow and pack bound at record 3 by first start).`,
      ].join("\n"),
    );
    expect(status.structured.gate).toMatchObject({
      applies: true,
      ok: false,
      code: "SKILL_USAGE_INCOMPLETE",
    });
    await rm(ws!.paths.skillsDir, { recursive: true, force: true });
    const missing = await engine.status();
    expect(missing.text).toContain(
      `\n  The workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT}\n`,
    );
    expect(missing.text).toContain(
      `\n  - ${TEXT}: missing, with the whole skill folder (restore it as said above)\n`,
    );
    expect(missing.text).toContain(
      `  - ${TEXT}: Listed yes, Read no (no lines read yet), Used no, Not Applicable no [missing from the workspace skill folder]`,
    );
  });

  it("with skills disabled says so and lists no skills", async () => {
    await setup([forcedStage(), PLAIN_STAGE], { skillsEnabled: false });
    const engine = await ws!.engine();
    const status = await engine.status();
    expect(status.text).toContain(
      "Skills: skill support is disabled; complete the stage from its tasks and checkers.",
    );
    expect(status.structured.skills).toEqual([]);
    expect(status.structured.gate).toEqual({ applies: false });
  });
});
