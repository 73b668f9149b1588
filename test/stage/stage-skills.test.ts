// Pure rules of a stage's skills: normalised skill_list, skill locations, the gate mode, and evidence with claims.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/schema.js";
import { emptyState } from "../../runtime/evidence/index.js";
import type { CatalogSnapshot } from "../../runtime/skills/types.js";
import {
  gateApplies,
  gateMode,
  skillEvidence,
  stageSkillInfo,
  stageSkillList,
} from "../../runtime/stage/stage-skills.js";

const stage = (extra: Record<string, unknown>) =>
  ConfigSchema.parse({ stage: [{ name: "s", ...extra }] }).stage[0]!;
const paths = { root: "/w/ws", skillsDir: "/w/ws/.ucagent/skills" };

describe("stageSkillList", () => {
  it("normalises, de-duplicates and drops ids outside the root; empty with skills disabled", () => {
    const s = stage({ skill_list: ["./a/b/", "a//b", "c", "../x"] });
    expect(stageSkillList(s, true)).toEqual(["a/b", "c"]);
    expect(stageSkillList(s, false)).toEqual([]);
    expect(stageSkillList(undefined, true)).toEqual([]);
  });
});

describe("stageSkillInfo", () => {
  it("uses the catalog's SKILL.md and scripts; an absent skill gets its expected path and present: false", () => {
    const catalog = {
      root: paths.skillsDir,
      skills: [{ id: "a/b", skillFile: "/w/ws/.ucagent/skills/a/b/SKILL.md", scripts: ["run.py"] }],
      skipped: [],
    } as unknown as CatalogSnapshot;
    expect(stageSkillInfo(paths, ["a/b", "gone/x"], catalog)).toEqual({
      "a/b": { skillFile: ".ucagent/skills/a/b/SKILL.md", scripts: ["run.py"], present: true },
      "gone/x": { skillFile: ".ucagent/skills/gone/x/SKILL.md", scripts: [], present: false },
    });
    expect(stageSkillInfo(paths, ["a/b"], null)["a/b"]?.present).toBe(false);
  });
});

describe("gateMode and gateApplies", () => {
  const table: [string, Record<string, unknown>, boolean, string, boolean][] = [
    ["no skill_list", {}, true, "no_skill_list", false],
    ["skills disabled", { skill_list: ["a"] }, false, "skills_disabled", false],
    ["force_use_skill false", { skill_list: ["a"], force_use_skill: false }, true, "gate_off", false],
    ["forced (default)", { skill_list: ["a"] }, true, "enforced", true],
    ["only ids outside the root", { skill_list: ["../x"] }, true, "enforced", false],
  ];
  it.each(table)("%s", (_name, extra, enabled, mode, applies) => {
    expect(gateMode(stage(extra), enabled)).toBe(mode);
    expect(gateApplies(stage(extra), enabled)).toBe(applies);
  });
});

describe("skillEvidence", () => {
  const state = () => {
    const s = emptyState();
    s.skills.t = { list: true, read: true, use: false, readRanges: [[1, 3]], totalLines: 3 };
    return s;
  };
  const text = { skillFile: "t/SKILL.md", scripts: [], present: true };
  const script = { skillFile: "t/SKILL.md", scripts: ["run.py"], present: true };

  it("a script-less skill counts as used when an accepted claim says use: true", () => {
    expect(skillEvidence(state(), "t", text, { list: true, read: true, use: true })).toEqual({
      list: true,
      read: true,
      use: true,
    });
  });

  it("a skill with scripts is used only when a run was observed, whatever the claim", () => {
    expect(skillEvidence(state(), "t", script, { list: true, read: true, use: true }).use).toBe(false);
  });

  it("no claim: observed flags only; use: false with a reason is not applicable", () => {
    expect(skillEvidence(state(), "t", text, undefined)).toEqual({ list: true, read: true, use: false });
    expect(
      skillEvidence(state(), "t", text, { list: true, read: true, use: false, reason: "no C code" }),
    ).toEqual({ list: true, read: true, use: false, notApplicableReason: "no C code" });
  });
});
