// ListSkill through a real workspace: ordering and cap, exact UCAgent text, list evidence, disabled and missing skill folder.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SkillRecord } from "../../runtime/skills/types.js";
import { selectSkills } from "../../runtime/tools/list-skill.js";
import { callTool } from "../../runtime/tools/registry.js";
import { tempRoot } from "../support/workspace.js";
import { type Fixture, GATE_SKILL, makeFixture } from "./helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

const TIP =
  "Tip: When the task description matches a skill description, use the `ReadTextFile` tool to read the corresponding " +
  "skill's SKILL.md file, learn the skill, and apply it.";

function entry(n: number, id: string): string[] {
  const name = id.split("/").pop()!;
  return [
    `${n}. Skill Name: ${name}`,
    `   Skill Description: Ordering fixture skill ${name}.`,
    `   Skill Path: .ucagent/skills/${id}/SKILL.md`,
    `   Skill ID: ${id}`,
  ];
}

describe("selectSkills (pure)", () => {
  const skill = (id: string) => ({ id }) as SkillRecord;
  const catalog = ["order/a", "order/b", "order/c", "order/d", "order/e"].map(skill);
  it.each([
    {
      max: 3,
      stage: ["order/b", "order/a"],
      general: ["order/c", "order/d", "order/e"],
      want: ["order/a", "order/b", "order/c"],
    },
    {
      max: 0,
      stage: ["order/b", "order/a"],
      general: ["order/e", "order/c", "order/d"],
      want: ["order/a", "order/b", "order/c", "order/d", "order/e"],
    },
    { max: 1, stage: ["order/b", "order/a"], general: ["order/c"], want: ["order/a", "order/b"] },
    {
      max: 15,
      stage: [],
      general: ["./order/d/", "order//c", "order/a"],
      want: ["order/a", "order/c", "order/d"],
    },
    { max: 2, stage: ["order/a"], general: ["order/a", "order/e", "order/d"], want: ["order/a", "order/d"] },
  ])("max $max, stage $stage, general $general", ({ max, stage, general, want }) => {
    const picked = selectSkills(catalog, stage, general, max);
    expect([...picked.stage, ...picked.general].map((s) => s.id)).toEqual(want);
  });
});

describe("ListSkill with skills enabled", () => {
  it("lists stage skills (never capped) then general skills up to the cap, in catalog order, with UCAgent wording", async () => {
    fixture = makeFixture({
      stageSkills: ["order/b", "order/a"],
      general: ["order/c", "order/d", "order/e"],
      max: 3,
    });
    const session = await fixture.open();
    const result = await callTool(session, "ListSkill", {});
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      [
        "Found 3 available skills:",
        ...entry(1, "order/a"),
        ...entry(2, "order/b"),
        ...entry(3, "order/c"),
        TIP,
      ].join("\n"),
    );
    const skills = result.structured.skills as { id: string; source: string }[];
    expect(skills.map((s) => [s.id, s.source])).toEqual([
      ["order/a", "stage"],
      ["order/b", "stage"],
      ["order/c", "general"],
    ]);
    const stage = await session.engine.current();
    expect(stage?.evidence["order/a"]?.list).toBe(true);
    expect(stage?.evidence["order/b"]?.list).toBe(true);
  });

  it("shows the Script Path block of a skill with scripts and records list evidence for it", async () => {
    fixture = makeFixture({ general: ["fixture/text-skill"] });
    const session = await fixture.open();
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.list).toBe(false);
    const result = await callTool(session, "ListSkill", undefined);
    expect(result.isError).toBe(false);
    const base = ".ucagent/skills/fixture/gate-skill/scripts";
    expect(result.text).toContain(
      [
        "1. Skill Name: gate-skill",
        "   Skill Description: Fixture stage skill for tool tests. Writes a report into OUT with make_report.py.",
        "   Skill Path: .ucagent/skills/fixture/gate-skill/SKILL.md",
        "   Skill ID: fixture/gate-skill",
        "   Script Path:",
        `     - fail.sh: ${base}/fail.sh`,
        `     - helper.ts: ${base}/helper.ts`,
        `     - make_report.py: ${base}/make_report.py`,
        `     - show_env.py: ${base}/show_env.py`,
        `     - write_marker.py: ${base}/write_marker.py`,
        "2. Skill Name: text-skill",
      ].join("\n"),
    );
    expect(result.text.startsWith("Found 2 available skills:\n")).toBe(true);
    expect(result.text).toContain(`${TIP}\nRun a listed script with \`RunSkillScript\``);
    const stage = await session.engine.current();
    expect(stage?.evidence[GATE_SKILL]?.list).toBe(true);
    // General skills are never stage evidence.
    expect(stage?.evidence["fixture/text-skill"]).toBeUndefined();
  });

  it("rejects arguments with a readable isError result", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const result = await callTool(session, "ListSkill", { verbose: true });
    expect(result).toMatchObject({ isError: true, code: "INVALID_ARGS" });
    expect(result.text).toBe(
      "Invalid arguments for ListSkill: unknown field(s) 'verbose'. Fix the call and try again, e.g. ListSkill {}.",
    );
  });
});

describe("ListSkill with skills disabled", () => {
  it("answers 'skill support is disabled' without an error, and ListSkill is not offered", async () => {
    fixture = makeFixture({ useSkill: false });
    const session = await fixture.open();
    const result = await callTool(session, "ListSkill", {});
    expect(result.isError).toBe(false);
    expect(result.text).toContain("skill support is disabled");
    expect(result.structured).toEqual({ disabled: true, reason: "skill support is disabled" });
  });

  it("--no-use-skill overrides a config that enables skills", async () => {
    fixture = makeFixture({ useSkill: true });
    const session = await fixture.open({ argvFlags: ["--use-skill", "--no-use-skill"] });
    expect(session.skillsEnabled).toBe(false);
    expect((await callTool(session, "ListSkill", {})).text).toContain("skill support is disabled");
  });
});

describe("ListSkill with the skill folder missing", () => {
  it("says how to init, then notices the folder coming back", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const hidden = join(fixture.dir, "hidden-skills");
    renameSync(session.paths.skillsDir, hidden);
    const result = await callTool(session, "ListSkill", {});
    expect(result).toMatchObject({ isError: true, code: "SKILL_ROOT_MISSING" });
    expect(result.text).toBe(
      "The workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder " +
        "with the same --config and --extra-skill-path flags this session was started with (the running tools pick " +
        "the copy up at once, no restart needed), or restart `skillgate serve`, which restores it at start. To work " +
        "without skills, restart with --no-use-skill.",
    );
    renameSync(hidden, session.paths.skillsDir);
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
  });

  it("reports a skill folder without any valid skill", async () => {
    const temp = tempRoot("skillgate-badpack-");
    const pack = temp.dir;
    try {
      mkdirSync(join(pack, "broken"));
      writeFileSync(join(pack, "broken", "SKILL.md"), "no frontmatter here\n");
      fixture = makeFixture({ packPath: pack, stageSkills: [] });
      const session = await fixture.open();
      const result = await callTool(session, "ListSkill", {});
      expect(result).toMatchObject({ isError: true, code: "SKILL_NOT_FOUND" });
      expect(result.text).toMatch(
        /^No available skills found in skill directory \.ucagent\/skills\. Skills should be/,
      );
      expect(result.text).toContain("run `skillgate init .` in the workspace folder to copy the pack");
      expect(result.text).not.toContain(session.paths.root);
    } finally {
      temp.cleanup();
    }
  });
});
