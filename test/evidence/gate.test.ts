// evaluateGate as a pure function: which evidence lets Complete run the checkers, and the exact refusal otherwise.
import { describe, expect, it } from "vitest";
import { evaluateGate, type GateContext } from "../../runtime/evidence/index.js";
import { INFO, rec, SKILL, stateOf, TEXT_SKILL } from "./core.js";

const MD = INFO[SKILL]!.skillFile;
const FRESH = { ok: true, reason: "" };
const enter = () => rec("stage_enter", { name: "build" });
const list = (...ids: string[]) => rec("list", { skills: ids });
const read = (id: string) => rec("read", { skill: id, startLine: 1, endLine: 10, totalLines: 10 });
const use = (id: string) => rec("use", { skills: [id] });
const usage = (claims: Record<string, unknown>) =>
  rec("set_skill_usage", { accepted: true, evidenceVersion: 0, fingerprint: "fp", files: {}, claims });

function gate(records: ReturnType<typeof rec>[], over: Partial<GateContext> = {}) {
  return evaluateGate({
    stageName: "build",
    skillList: [SKILL],
    skills: INFO,
    state: stateOf(...records),
    usage: FRESH,
    ...over,
  });
}

const tail = (next: string) => `Next: ${next}; then \`Check\` and record the usage with \`SetSkillUsage\`.`;
const HEAD = "Stage 'build' has incomplete skill evidence (no checker was run):";
const RUN = "run its script with `RunSkillScript` (or report use: false with a reason via `SetSkillUsage`)";

describe("evaluateGate", () => {
  it.each([
    {
      name: "nothing recorded",
      records: [enter()],
      next: "ListSkill({})",
      message: [
        `Use tool \`ListSkill\` to list skill ${SKILL} before completing this stage. ${HEAD}`,
        `- ${SKILL}: Listed no, Read no, Used no, Not Applicable no -> call \`ListSkill\`; read ${MD} with \`ReadTextFile\`; ${RUN}`,
        tail("ListSkill({})"),
      ],
    },
    {
      name: "listed, not read",
      records: [enter(), list(SKILL)],
      next: `ReadTextFile({"path":"${MD}"})`,
      message: [
        `Use tool \`ReadTextFile\` to read ${MD} in full before completing this stage. ${HEAD}`,
        `- ${SKILL}: Listed yes, Read no, Used no, Not Applicable no -> read ${MD} with \`ReadTextFile\`; ${RUN}`,
        tail(`ReadTextFile({"path":"${MD}"})`),
      ],
    },
    {
      name: "listed and read, script not run",
      records: [enter(), list(SKILL), read(SKILL)],
      next: `RunSkillScript({"commands":[["${SKILL}","run.py","<args from its SKILL.md>"]]})`,
      message: [
        `Run a script of skill ${SKILL} with \`RunSkillScript\` as its SKILL.md says (or report use: false with a reason via \`SetSkillUsage\`) before completing this stage. ${HEAD}`,
        `- ${SKILL}: Listed yes, Read yes, Used no, Not Applicable no -> ${RUN}`,
        tail(`RunSkillScript({"commands":[["${SKILL}","run.py","<args from its SKILL.md>"]]})`),
      ],
    },
    {
      name: "text method listed and read, use not yet claimed",
      records: [enter(), list(TEXT_SKILL), read(TEXT_SKILL)],
      over: { skillList: [TEXT_SKILL] },
      next: `SetSkillUsage({"skill_usage":{"${TEXT_SKILL}":{"list":true,"read":true,"use":true}}})`,
      message: [
        `Apply the method of skill ${TEXT_SKILL}, then report it with \`SetSkillUsage\` before completing this stage. ${HEAD}`,
        `- ${TEXT_SKILL}: Listed yes, Read yes, Used no, Not Applicable no -> apply its method, then report use: true with \`SetSkillUsage\` (or use: false with a reason)`,
        tail(`SetSkillUsage({"skill_usage":{"${TEXT_SKILL}":{"list":true,"read":true,"use":true}}})`),
      ],
    },
  ])("SKILL_USAGE_INCOMPLETE: $name", ({ records, over, next, message }) => {
    const verdict = gate(records, over);
    expect(verdict).toMatchObject({ ok: false, code: "SKILL_USAGE_INCOMPLETE", nextAction: next });
    expect(!verdict.ok && verdict.message).toBe(message.join("\n"));
  });

  it("SKILL_NOT_FOUND when a gate skill left the workspace, naming how to restore it", () => {
    const verdict = gate([enter()], { skills: { [SKILL]: { ...INFO[SKILL]!, present: false } } });
    expect(verdict).toMatchObject({ ok: false, code: "SKILL_NOT_FOUND" });
    expect(!verdict.ok && verdict.message.split("\n")).toEqual([
      "Stage 'build' cannot complete: its skill gate needs skills that are missing from the workspace.",
      expect.stringMatching(
        new RegExp(
          `^- skill '${SKILL}' of this stage is not in the workspace skill folder \\(${MD} is missing`,
        ),
      ),
    ]);
  });

  it("SKILL_USAGE_NOT_VALIDATED when the evidence is complete but the usage is stale", () => {
    const verdict = gate([enter(), list(SKILL), read(SKILL), use(SKILL)], {
      usage: { ok: false, reason: "SetSkillUsage has not accepted a usage report in this stage" },
    });
    expect(verdict).toMatchObject({ ok: false, code: "SKILL_USAGE_NOT_VALIDATED" });
    const call = `SetSkillUsage({"skill_usage":{"${SKILL}":{"list":true,"read":true,"use":true}}})`;
    expect(!verdict.ok && verdict.message).toBe(
      [
        "Call `Check`, then record the skill usage with `SetSkillUsage` before completing stage 'build': its skill usage is not validated for the current evidence (SetSkillUsage has not accepted a usage report in this stage); no checker was run.",
        `Call \`Check\`, then: ${call}`,
      ].join("\n"),
    );
  });

  it.each([
    {
      name: "list + read + script use",
      records: [enter(), list(SKILL), read(SKILL), use(SKILL)],
      skills: [SKILL],
    },
    {
      name: "a not-applicable claim with its reason",
      records: [
        enter(),
        list(SKILL),
        read(SKILL),
        usage({ [SKILL]: { list: true, read: true, use: false, reason: "r" } }),
      ],
      skills: [SKILL],
    },
    {
      name: "a text method claimed used",
      records: [
        enter(),
        list(TEXT_SKILL),
        read(TEXT_SKILL),
        usage({ [TEXT_SKILL]: { list: true, read: true, use: true } }),
      ],
      skills: [TEXT_SKILL],
    },
    { name: "a stage without skills", records: [enter()], skills: [] },
  ])("passes: $name", ({ records, skills }) => {
    expect(gate(records, { skillList: skills })).toEqual({ ok: true });
  });

  it("a claimed use for a scripted skill without a run does not pass", () => {
    const verdict = gate([
      enter(),
      list(SKILL),
      read(SKILL),
      usage({ [SKILL]: { list: true, read: true, use: true } }),
    ]);
    expect(verdict).toMatchObject({ ok: false, code: "SKILL_USAGE_INCOMPLETE" });
  });

  it("the suggested call keeps a recorded not-applicable reason and never invents use: false", () => {
    const verdict = gate(
      [
        enter(),
        list(SKILL, TEXT_SKILL),
        read(SKILL),
        read(TEXT_SKILL),
        usage({
          [SKILL]: { list: true, read: true, use: false, reason: "none" },
          [TEXT_SKILL]: { list: true, read: true, use: true },
        }),
      ],
      { skillList: [SKILL, TEXT_SKILL], usage: { ok: false, reason: "stale" } },
    );
    expect(verdict).toMatchObject({
      ok: false,
      code: "SKILL_USAGE_NOT_VALIDATED",
      nextAction: `SetSkillUsage({"skill_usage":{"${SKILL}":{"list":true,"read":true,"use":false,"reason":"none"},"${TEXT_SKILL}":{"list":true,"read":true,"use":true}}})`,
    });
  });
});
