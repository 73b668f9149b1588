// evaluateSkillUsage as a pure function: each claim/evidence combination and its exact verdict.
import { describe, expect, it } from "vitest";
import { evaluateSkillUsage, type UsageContext } from "../../runtime/evidence/index.js";
import { fullEvidence, INFO, rec, SKILL, stateOf, TEXT_SKILL, usageContext } from "./core.js";

const F = `skill_usage['${SKILL}']`;
const REJECTED = "SetSkillUsage rejected for stage 'build'; nothing was recorded.";
const used = { list: true, read: true, use: true };

interface Row {
  name: string;
  input: unknown;
  /** Evidence recorded before the call (default: full list/read/use of SKILL). */
  records?: ReturnType<typeof fullEvidence>;
  ctx?: Partial<UsageContext>;
  accepted: boolean;
  message: string[];
  next?: string;
}

const rows: Row[] = [
  {
    name: "not a mapping",
    input: [],
    accepted: false,
    message: [
      REJECTED,
      "- skill_usage must be a mapping of skill id to {list, read, use, reason?}; got array [].",
      "Next: call `SetSkillUsage`.",
    ],
    next: "SetSkillUsage",
  },
  {
    name: "empty mapping",
    input: {},
    accepted: false,
    message: [
      REJECTED,
      "- Skill usage content cannot be empty: give one entry per skill of stage 'build' (grp/alpha).",
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "a key outside skill_list, the required skill absent",
    input: { "grp/zeta": used },
    records: [rec("stage_enter", { name: "build" })],
    accepted: false,
    message: [
      REJECTED,
      "- 'grp/zeta' is not in the skill_list of stage 'build' (grp/alpha); remove it.",
      `- skill_usage has no entry for '${SKILL}'. You must use skill '${SKILL}' in current stage, using tool \`ListSkill\` to list and use it, then report it here.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "an id the normaliser refuses",
    input: { "../x": used, [SKILL]: used },
    accepted: false,
    message: [
      REJECTED,
      "- '../x' is not in the skill_list of stage 'build' (grp/alpha); remove it.",
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "two spellings of one skill",
    input: { [SKILL]: used, [`./${SKILL}/`]: used },
    accepted: false,
    message: [
      REJECTED,
      `- '${SKILL}' and './${SKILL}/' name the same skill '${SKILL}'; give it once.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "an entry that is not a mapping",
    input: { [SKILL]: "yes" },
    accepted: false,
    message: [
      REJECTED,
      `- ${F} must be a mapping {list, read, use, reason?}; got "yes" (string).`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "unknown field, a missing flag and a non-boolean flag",
    input: { [SKILL]: { list: "true", read: true, extra: 1 } },
    accepted: false,
    message: [
      REJECTED,
      `- ${F} has unknown field 'extra'; allowed fields: list, read, use, reason.`,
      `- ${F}.list must be true or false; got "true" (string).`,
      `- ${F}.use is missing; set it to true or false.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "blank reason",
    input: { [SKILL]: { list: true, read: true, use: false, reason: "  " } },
    accepted: false,
    message: [
      REJECTED,
      `- ${F}.reason must be a non-blank string saying why the skill does not apply; got "  " (string).`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "use: true with a reason",
    input: { [SKILL]: { ...used, reason: "r" } },
    accepted: false,
    message: [
      REJECTED,
      `- ${F} has use: true with a reason; a reason is only for use: false, remove it.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "use: false without a reason",
    input: { [SKILL]: { list: true, read: true, use: false } },
    accepted: false,
    message: [
      REJECTED,
      `- ${F} has use: false without a reason; add reason: why the skill does not apply to this stage.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "claims with no evidence at all",
    input: { [SKILL]: used },
    records: [rec("stage_enter", { name: "build" })],
    accepted: false,
    message: [
      REJECTED,
      `- ${F}.list is true but no ListSkill call listed '${SKILL}' in this stage.`,
      `- ${F}.read is true but ${INFO[SKILL]!.skillFile} was not read in full in this stage (no lines read yet); read it with \`ReadTextFile\` (path ${INFO[SKILL]!.skillFile}), then report again.`,
      `- ${F}.use is true but no successful RunSkillScript call ran a script of '${SKILL}' (run.py) in this stage. You must re-complete the stage by using the skill ${SKILL} according to the method steps mentioned in its SKILL.md, or set use: false with a reason.`,
      "Next: call `ListSkill`.",
    ],
    next: "ListSkill",
  },
  {
    name: "claims false where nothing was observed (partial read)",
    input: { [SKILL]: { list: false, read: false, use: false, reason: "n/a" } },
    records: [
      rec("stage_enter", { name: "build" }),
      rec("read", { skill: SKILL, startLine: 1, endLine: 4, totalLines: 10 }),
      rec("read", { skill: SKILL, startLine: 7, endLine: 7, totalLines: 10 }),
    ],
    accepted: false,
    message: [
      REJECTED,
      `- You must re-complete the stage by using tool \`ListSkill\` to list and use the skill ${SKILL}.`,
      `- You must re-complete the stage by using tool \`ReadTextFile\` to read the SKILL.md of skill ${SKILL} and use it (${INFO[SKILL]!.skillFile}, read lines 1-4, 7 of 10).`,
      "Next: call `ListSkill`.",
    ],
  },
  {
    name: "claims false where evidence was observed",
    input: { [SKILL]: { list: false, read: false, use: false, reason: "n/a" } },
    accepted: false,
    message: [
      REJECTED,
      `- ${F}.list is false but ListSkill listed '${SKILL}' in this stage; set list: true.`,
      `- ${F}.read is false but ReadTextFile read the whole ${INFO[SKILL]!.skillFile} in this stage; set read: true.`,
      `- ${F}.use is false but RunSkillScript ran the scripts of '${SKILL}' successfully in this stage; set use: true and remove the reason.`,
      "Next: call `SetSkillUsage`.",
    ],
  },
  {
    name: "Check not passed since the evidence changed",
    input: { [SKILL]: used },
    ctx: { check: { ok: false, reason: "the last `Check` failed" } },
    accepted: false,
    message: [
      REJECTED,
      "- the current evidence has not passed `Check` since it last changed (the last `Check` failed).",
      "Next: call `Check`.",
    ],
    next: "Check",
  },
  {
    name: "the skill left the workspace",
    input: { [SKILL]: used },
    ctx: { skills: { [SKILL]: { ...INFO[SKILL]!, present: false } } },
    accepted: false,
    message: [
      REJECTED,
      `- skill '${SKILL}' of this stage is not in the workspace skill folder (${INFO[SKILL]!.skillFile} is missing or no longer parses). To restore it, run \`skillgate init .\` in the workspace folder with the same --config and --extra-skill-path flags this session was started with (the running tools pick the copy up at once, no restart needed), or restart \`skillgate serve\`, which restores it at start. To work without skills, restart with --no-use-skill.`,
      "Next: call `Status`.",
    ],
  },
  {
    name: "all used",
    input: { [SKILL]: used },
    accepted: true,
    message: [
      `All skills in skill_list have been used. SetSkillUsage accepted for stage 'build': ${SKILL}: Used. Next: call \`Complete\`.`,
    ],
  },
  {
    name: "not applicable with a reason (trimmed)",
    input: { [SKILL]: { list: true, read: true, use: false, reason: "  no code here " } },
    records: fullEvidence(SKILL).slice(0, 3),
    accepted: true,
    message: [
      `No-applicable-work was recorded for: ${SKILL}. SetSkillUsage accepted for stage 'build': ${SKILL}: Not Applicable (reason: no code here). Next: call \`Complete\`.`,
    ],
  },
  {
    name: "a text method (no scripts) is used when claimed after list + read",
    input: { [TEXT_SKILL]: used },
    records: fullEvidence(TEXT_SKILL),
    ctx: { skillList: [TEXT_SKILL] },
    accepted: true,
    message: [
      `All skills in skill_list have been used. SetSkillUsage accepted for stage 'build': ${TEXT_SKILL}: Used. Next: call \`Complete\`.`,
    ],
  },
  {
    name: "optional stage: unreported skills are named",
    input: { [SKILL]: used },
    ctx: { skillList: [SKILL, TEXT_SKILL], optional: true },
    accepted: true,
    message: [
      `Skill usage recorded for the skills you used (${SKILL}). SetSkillUsage accepted for stage 'build': ${SKILL}: Used. Not reported (stage 'build' is optional, force_use_skill is false): ${TEXT_SKILL}. Next: call \`Complete\`.`,
    ],
  },
  {
    name: "forced stage: every skill must be reported",
    input: { [SKILL]: used },
    ctx: { skillList: [SKILL, TEXT_SKILL] },
    accepted: false,
    message: [
      REJECTED,
      `- skill_usage has no entry for '${TEXT_SKILL}'. You must use skill '${TEXT_SKILL}' in current stage, using tool \`ListSkill\` to list and use it, then report it here.`,
      "Next: call `ListSkill`.",
    ],
    next: "ListSkill",
  },
];

describe("evaluateSkillUsage", () => {
  it.each(rows)("$name", (row) => {
    const state = stateOf(...(row.records ?? fullEvidence(SKILL)));
    const verdict = evaluateSkillUsage(row.input, usageContext(state, row.ctx));
    expect(verdict.accepted).toBe(row.accepted);
    expect(verdict.message).toBe(row.message.join("\n"));
    if (!verdict.accepted && row.next) expect(verdict.problems[0]!.next).toBe(row.next);
  });

  it("returns the parsed claims, reasons trimmed, and leaves the state untouched", () => {
    const state = stateOf(...fullEvidence(SKILL, TEXT_SKILL));
    const before = structuredClone(state);
    const verdict = evaluateSkillUsage(
      { [SKILL]: used, [TEXT_SKILL]: { list: true, read: true, use: false, reason: " later " } },
      usageContext(state, { skillList: [SKILL, TEXT_SKILL] }),
    );
    expect(verdict).toMatchObject({
      accepted: true,
      claims: { [SKILL]: used, [TEXT_SKILL]: { list: true, read: true, use: false, reason: "later" } },
    });
    expect(state).toEqual(before);
  });

  it("never throws on hostile input shapes", () => {
    const state = stateOf(...fullEvidence(SKILL));
    for (const input of [
      null,
      undefined,
      1,
      "x",
      true,
      { [SKILL]: null },
      { [SKILL]: [] },
      { [SKILL]: { list: null } },
    ])
      expect(evaluateSkillUsage(input, usageContext(state)).accepted).toBe(false);
  });
});
