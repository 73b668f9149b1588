// Table tests: every SetSkillUsage rejection with its exact message, on real evidence in a real workspace.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SkillgateStageEngine } from "../../runtime/stage/index.js";
import { makeWorkspace, type TestWorkspace, wholeFile } from "./helpers.js";

const TEXT = "review/text-method";
const SCRIPT = "review/script-method";
const USED = { list: true, read: true, use: true };
const HEAD = "SetSkillUsage rejected for stage 'review'; nothing was recorded.";

type Evidence = "none" | "listed" | "read" | "full";

interface Case {
  name: string;
  evidence: Evidence;
  input: unknown;
  lines: string[];
  next: string;
}

const cases: Case[] = [
  {
    name: "not a mapping",
    evidence: "full",
    input: [],
    lines: ["skill_usage must be a mapping of skill id to {list, read, use, reason?}; got array []."],
    next: "SetSkillUsage",
  },
  {
    name: "empty",
    evidence: "full",
    input: {},
    lines: [
      `Skill usage content cannot be empty: give one entry per skill of stage 'review' (${TEXT}, ${SCRIPT}).`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "a key not in the stage's skill_list",
    evidence: "full",
    input: { [TEXT]: USED, [SCRIPT]: USED, "review/other": USED },
    lines: [`'review/other' is not in the skill_list of stage 'review' (${TEXT}, ${SCRIPT}); remove it.`],
    next: "SetSkillUsage",
  },
  {
    name: "a key escaping the skill root",
    evidence: "full",
    input: { [TEXT]: USED, [SCRIPT]: USED, "../x": USED },
    lines: [`'../x' is not in the skill_list of stage 'review' (${TEXT}, ${SCRIPT}); remove it.`],
    next: "SetSkillUsage",
  },
  {
    name: "the same skill twice after normalisation",
    evidence: "full",
    input: { [TEXT]: USED, [SCRIPT]: USED, [`./${SCRIPT}/`]: USED },
    lines: [`'${SCRIPT}' and './${SCRIPT}/' name the same skill '${SCRIPT}'; give it once.`],
    next: "SetSkillUsage",
  },
  {
    name: "a required stage skill absent",
    evidence: "full",
    input: { [TEXT]: USED },
    lines: [
      `skill_usage has no entry for '${SCRIPT}'. You must use skill '${SCRIPT}' in current stage, using tool \`ListSkill\` to list and use it, then report it here.`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "a value that is not an object",
    evidence: "full",
    input: { [TEXT]: true, [SCRIPT]: USED },
    lines: [`skill_usage['${TEXT}'] must be a mapping {list, read, use, reason?}; got true (boolean).`],
    next: "SetSkillUsage",
  },
  {
    name: "an unknown field",
    evidence: "full",
    input: { [TEXT]: { ...USED, note: "x" }, [SCRIPT]: USED },
    lines: [`skill_usage['${TEXT}'] has unknown field 'note'; allowed fields: list, read, use, reason.`],
    next: "SetSkillUsage",
  },
  {
    name: "a flag missing",
    evidence: "full",
    input: { [TEXT]: { list: true, use: true }, [SCRIPT]: USED },
    lines: [`skill_usage['${TEXT}'].read is missing; set it to true or false.`],
    next: "SetSkillUsage",
  },
  {
    name: "a flag that is a string",
    evidence: "full",
    input: { [TEXT]: { ...USED, list: "true" }, [SCRIPT]: USED },
    lines: [`skill_usage['${TEXT}'].list must be true or false; got "true" (string).`],
    next: "SetSkillUsage",
  },
  {
    name: "a flag that is a number",
    evidence: "full",
    input: { [TEXT]: { ...USED, use: 1 }, [SCRIPT]: USED },
    lines: [`skill_usage['${TEXT}'].use must be true or false; got 1 (number).`],
    next: "SetSkillUsage",
  },
  {
    name: "a blank reason",
    evidence: "full",
    input: { [TEXT]: { list: true, read: true, use: false, reason: "   " }, [SCRIPT]: USED },
    lines: [
      `skill_usage['${TEXT}'].reason must be a non-blank string saying why the skill does not apply; got "   " (string).`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "use: true with a reason",
    evidence: "full",
    input: { [TEXT]: { ...USED, reason: "because" }, [SCRIPT]: USED },
    lines: [
      `skill_usage['${TEXT}'] has use: true with a reason; a reason is only for use: false, remove it.`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "use: false without a reason",
    evidence: "full",
    input: { [TEXT]: { list: true, read: true, use: false }, [SCRIPT]: USED },
    lines: [
      `skill_usage['${TEXT}'] has use: false without a reason; add reason: why the skill does not apply to this stage.`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "list and read claimed without records",
    evidence: "none",
    input: { [TEXT]: USED, [SCRIPT]: { list: true, read: true, use: false, reason: "n/a" } },
    lines: [
      `skill_usage['${TEXT}'].list is true but no ListSkill call listed '${TEXT}' in this stage.`,
      `skill_usage['${TEXT}'].read is true but .ucagent/skills/${TEXT}/SKILL.md was not read in full in this stage (no lines read yet); read it with \`ReadTextFile\` (path .ucagent/skills/${TEXT}/SKILL.md), then report again.`,
      `skill_usage['${SCRIPT}'].list is true but no ListSkill call listed '${SCRIPT}' in this stage.`,
      `skill_usage['${SCRIPT}'].read is true but .ucagent/skills/${SCRIPT}/SKILL.md was not read in full in this stage (no lines read yet); read it with \`ReadTextFile\` (path .ucagent/skills/${SCRIPT}/SKILL.md), then report again.`,
    ],
    next: "ListSkill",
  },
  {
    name: "observed list and read denied",
    evidence: "read",
    input: {
      [TEXT]: { list: false, read: false, use: false, reason: "n/a" },
      [SCRIPT]: { list: true, read: true, use: false, reason: "n/a" },
    },
    lines: [
      `skill_usage['${TEXT}'].list is false but ListSkill listed '${TEXT}' in this stage; set list: true.`,
      `skill_usage['${TEXT}'].read is false but ReadTextFile read the whole .ucagent/skills/${TEXT}/SKILL.md in this stage; set read: true.`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "observed list and read incomplete (honest claims)",
    evidence: "none",
    input: {
      [TEXT]: { list: false, read: false, use: false, reason: "n/a" },
      [SCRIPT]: { list: false, read: false, use: false, reason: "n/a" },
    },
    lines: [
      `You must re-complete the stage by using tool \`ListSkill\` to list and use the skill ${TEXT}.`,
      `You must re-complete the stage by using tool \`ReadTextFile\` to read the SKILL.md of skill ${TEXT} and use it (.ucagent/skills/${TEXT}/SKILL.md, no lines read yet).`,
      `You must re-complete the stage by using tool \`ListSkill\` to list and use the skill ${SCRIPT}.`,
      `You must re-complete the stage by using tool \`ReadTextFile\` to read the SKILL.md of skill ${SCRIPT} and use it (.ucagent/skills/${SCRIPT}/SKILL.md, no lines read yet).`,
    ],
    next: "ListSkill",
  },
  {
    name: "read only partly",
    evidence: "listed",
    input: { [TEXT]: USED, [SCRIPT]: { list: true, read: true, use: false, reason: "n/a" } },
    lines: [
      `skill_usage['${TEXT}'].read is true but .ucagent/skills/${TEXT}/SKILL.md was not read in full in this stage (read lines 1-3 of 9); read it with \`ReadTextFile\` (path .ucagent/skills/${TEXT}/SKILL.md), then report again.`,
      `skill_usage['${SCRIPT}'].read is true but .ucagent/skills/${SCRIPT}/SKILL.md was not read in full in this stage (no lines read yet); read it with \`ReadTextFile\` (path .ucagent/skills/${SCRIPT}/SKILL.md), then report again.`,
    ],
    next: "ReadTextFile",
  },
  {
    name: "use: false while use was observed",
    evidence: "full",
    input: { [TEXT]: USED, [SCRIPT]: { list: true, read: true, use: false, reason: "did not need it" } },
    lines: [
      `skill_usage['${SCRIPT}'].use is false but RunSkillScript ran the scripts of '${SCRIPT}' successfully in this stage; set use: true and remove the reason.`,
    ],
    next: "SetSkillUsage",
  },
  {
    name: "use: true for a script skill that never ran",
    evidence: "read",
    input: { [TEXT]: USED, [SCRIPT]: USED },
    lines: [
      `skill_usage['${SCRIPT}'].use is true but no successful RunSkillScript call ran a script of '${SCRIPT}' (helper.py) in this stage. You must re-complete the stage by using the skill ${SCRIPT} according to the method steps mentioned in its SKILL.md, or set use: false with a reason.`,
    ],
    next: "RunSkillScript",
  },
];

const workspaces: TestWorkspace[] = [];
const engines = new Map<Evidence, SkillgateStageEngine>();

async function engineWith(evidence: Evidence): Promise<SkillgateStageEngine> {
  const ws = await makeWorkspace({
    stages: [
      {
        name: "review",
        output_files: ["out/report.md"],
        checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
        skill_list: [TEXT, SCRIPT],
      },
    ],
  });
  workspaces.push(ws);
  await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
  const engine = await ws.engine();
  if (evidence !== "none") await engine.recordList([TEXT, SCRIPT]);
  if (evidence === "listed") await engine.recordRead(TEXT, { startLine: 1, endLine: 3, totalLines: 9 });
  if (evidence === "read" || evidence === "full") {
    await engine.recordRead(TEXT, wholeFile(9));
    await engine.recordRead(SCRIPT, wholeFile(7));
  }
  if (evidence === "full") await engine.recordUse([SCRIPT], {});
  expect((await engine.check()).isError).toBe(false);
  return engine;
}

beforeAll(async () => {
  for (const evidence of ["none", "listed", "read", "full"] as const)
    engines.set(evidence, await engineWith(evidence));
});

afterAll(async () => {
  for (const ws of workspaces) await ws.cleanup();
});

describe("SetSkillUsage rejections", () => {
  it.each(cases)("$name", async ({ evidence, input, lines, next }) => {
    const engine = engines.get(evidence)!;
    const before = await engine.ledger.read();
    const result = await engine.setSkillUsage(input);
    expect(result.isError).toBe(true);
    expect(result.code).toBe("SKILL_USAGE_REJECTED");
    expect(result.text).toBe([HEAD, ...lines.map((l) => `- ${l}`), `Next: call \`${next}\`.`].join("\n"));
    expect(result.structured.next_tool).toBe(next);
    const after = await engine.ledger.read();
    expect(after.state).toEqual(before.state);
    expect(after.state.usage).toBeNull();
  });

  it("accepts the honest report after all rejections", async () => {
    const engine = engines.get("full")!;
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.isError).toBe(false);
    expect((await engine.ledger.read()).state.usage?.claims).toEqual({ [TEXT]: USED, [SCRIPT]: USED });
  });
});
