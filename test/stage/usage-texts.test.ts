// Exact texts of the skill gate and SetSkillUsage: first missing step by tool, next_action, optional stages.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SkillgateStageEngine } from "../../runtime/stage/index.js";
import { makeWorkspace, type TestWorkspace, wholeFile } from "./helpers.js";

const TEXT = "review/text-method";
const SCRIPT = "review/script-method";
const USED = { list: true, read: true, use: true };
const NOT_APPLICABLE = { list: true, read: true, use: false, reason: "the target has no scripts to run" };

type Evidence = "none" | "listed" | "read" | "used";

const workspaces: TestWorkspace[] = [];
afterAll(async () => {
  for (const ws of workspaces) await ws.cleanup();
});

async function engineWith(evidence: Evidence, force = true): Promise<SkillgateStageEngine> {
  const ws = await makeWorkspace({
    stages: [
      {
        name: "review",
        output_files: ["out/report.md"],
        checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
        skill_list: [TEXT, SCRIPT],
        force_use_skill: force,
      },
      { name: "after", checker: [] },
    ],
  });
  workspaces.push(ws);
  await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
  const engine = await ws.engine();
  if (evidence !== "none") await engine.recordList([TEXT, SCRIPT]);
  if (evidence === "listed") await engine.recordRead(TEXT, { startLine: 1, endLine: 3, totalLines: 9 });
  if (evidence === "read" || evidence === "used") {
    await engine.recordRead(TEXT, wholeFile(9));
    await engine.recordRead(SCRIPT, wholeFile(7));
  }
  if (evidence === "used") await engine.recordUse([SCRIPT], {});
  return engine;
}

describe("the Complete gate names the first missing step and leads to the tool that gathers it", () => {
  it.each([
    {
      evidence: "none" as const,
      first: "Use tool `ListSkill` to list skill review/text-method before completing this stage.",
      next: "ListSkill({})",
    },
    {
      evidence: "listed" as const,
      first:
        "Use tool `ReadTextFile` to read .ucagent/skills/review/text-method/SKILL.md in full before completing this stage.",
      next: 'ReadTextFile({"path":".ucagent/skills/review/text-method/SKILL.md"})',
    },
    {
      evidence: "read" as const,
      first:
        "Apply the method of skill review/text-method, then report it with `SetSkillUsage` before completing this stage.",
      next: 'RunSkillScript({"commands":[["review/script-method","helper.py","<args from its SKILL.md>"]]})',
    },
    {
      evidence: "used" as const,
      first:
        "Apply the method of skill review/text-method, then report it with `SetSkillUsage` before completing this stage.",
      next: `SetSkillUsage(${JSON.stringify({ skill_usage: { [TEXT]: USED, [SCRIPT]: USED } })})`,
    },
  ])("evidence $evidence", async ({ evidence, first, next }) => {
    const engine = await engineWith(evidence);
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_USAGE_INCOMPLETE");
    expect(complete.text.split("\n")[0]).toBe(
      `${first} Stage 'review' has incomplete skill evidence (no checker was run):`,
    );
    expect(complete.text).not.toContain("Please use tool 'SetSkillUsage'");
    expect(complete.structured.next_action).toBe(next);
    // Never a use:false claim for a required skill the agent has not even listed or read.
    if (evidence === "none" || evidence === "listed") expect(String(next)).not.toContain('"use":false');
  });

  it("not validated: names Check, then SetSkillUsage", async () => {
    const engine = await engineWith("used");
    expect((await engine.check()).isError).toBe(false);
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
    await engine.recordRead(TEXT, wholeFile(9));
    await writeFile(join(workspaces.at(-1)!.root, "out", "report.md"), "# Report\n\nchanged\n");
    const complete = await engine.complete();
    expect(complete.code).toBe("SKILL_USAGE_NOT_VALIDATED");
    expect(complete.text.split("\n")[0]).toMatch(
      /^Call `Check`, then record the skill usage with `SetSkillUsage` before completing stage 'review': its skill usage is not validated for the current evidence \(.+\); no checker was run\.$/,
    );
  });
});

describe("SetSkillUsage acceptance texts", () => {
  it("use: false is acknowledged as No-applicable-work", async () => {
    const engine = await engineWith("read");
    expect((await engine.check()).isError).toBe(false);
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: NOT_APPLICABLE });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      `No-applicable-work was recorded for: ${SCRIPT}. SetSkillUsage accepted for stage 'review': ${TEXT}: Used; ${SCRIPT}: Not Applicable (reason: the target has no scripts to run). Next: call \`Complete\`.`,
    );
  });

  it("all used keeps UCAgent's sentence", async () => {
    const engine = await engineWith("used");
    expect((await engine.check()).isError).toBe(false);
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.text).toBe(
      `All skills in skill_list have been used. SetSkillUsage accepted for stage 'review': ${TEXT}: Used; ${SCRIPT}: Used. Next: call \`Complete\`.`,
    );
  });
});

describe("optional stage (force_use_skill: false)", () => {
  it("accepts entries for the skills used only, and still checks each entry given", async () => {
    const engine = await engineWith("listed", false);
    await engine.recordRead(TEXT, wholeFile(9));
    expect((await engine.check()).isError).toBe(false);
    const wrong = await engine.setSkillUsage({ [SCRIPT]: USED });
    expect(wrong.code).toBe("SKILL_USAGE_REJECTED");
    expect(wrong.text).toContain(
      `- skill_usage['${SCRIPT}'].read is true but .ucagent/skills/${SCRIPT}/SKILL.md was not read in full in this stage (no lines read yet); read it with \`ReadTextFile\` (path .ucagent/skills/${SCRIPT}/SKILL.md), then report again.`,
    );
    expect(wrong.text).not.toContain("no entry for");
    const result = await engine.setSkillUsage({ [TEXT]: USED });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      `Skill usage recorded for the skills you used (${TEXT}). SetSkillUsage accepted for stage 'review': ${TEXT}: Used. Not reported (stage 'review' is optional, force_use_skill is false): ${SCRIPT}. Next: call \`Complete\`.`,
    );
    expect((await engine.complete()).isError).toBe(false);
  });

  it("a forced stage still demands every entry, pointing at the tool that gathers the missing evidence", async () => {
    const engine = await engineWith("listed", true);
    await engine.recordRead(TEXT, wholeFile(9));
    expect((await engine.check()).isError).toBe(false);
    const result = await engine.setSkillUsage({ [TEXT]: USED });
    expect(result.code).toBe("SKILL_USAGE_REJECTED");
    expect(result.text).toContain(`- skill_usage has no entry for '${SCRIPT}'.`);
    expect(result.structured.next_tool).toBe("ReadTextFile");
  });
});
