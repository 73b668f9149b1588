// validateWorkflow: strict force_use_skill, checker args, skill_list normalisation and existence (parses, not just a folder).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/config/index.js";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import type { CatalogSnapshot } from "../../runtime/skills/types.js";
import { validateWorkflow } from "../../runtime/stage/index.js";
import { FIXTURE_SKILLS } from "./helpers.js";

let catalog: CatalogSnapshot;
beforeAll(() => {
  catalog = scanSkillRoot(FIXTURE_SKILLS);
});

const stage = (extra: Record<string, unknown>) => ({ name: "review", ...extra });

describe("validateWorkflow", () => {
  it("accepts a sound workflow with normalised skill ids", () => {
    const diagnostics = validateWorkflow(
      {
        stage: [
          stage({ skill_list: ["./review/text-method/", "review//script-method"], force_use_skill: true }),
          { name: "plain", checker: [{ kind: "file_exists", args: { paths: ["a", "b"] } }] },
        ],
        skill: { general_skill_list: ["hooked/second"] },
      },
      catalog,
      true,
    );
    expect(diagnostics).toEqual([]);
  });

  it.each([
    ["false", '"false" (a string)', "false"],
    [0, "0 (a number)", "false"],
    [null, "null", "false"],
    ["yes", '"yes" (a string)', "true"],
  ])("rejects force_use_skill %j naming the stage", (value, shown, fix) => {
    const [d] = validateWorkflow({ stage: [stage({ force_use_skill: value })] }, catalog, true);
    expect(d).toEqual({
      path: "stage[0].force_use_skill",
      code: "FORCE_USE_SKILL_NOT_BOOLEAN",
      severity: "error",
      message: `stage 'review' (stage[0]): force_use_skill must be true or false; got ${shown}. Write force_use_skill: ${fix} (a YAML boolean, no quotes).`,
    });
  });

  it("reports skill_list entries that escape the root, do not exist, or do not parse", () => {
    const diagnostics = validateWorkflow(
      {
        stage: [
          stage({
            skill_list: [
              "../outside",
              "/abs/path",
              "review/missing",
              "text-method",
              "broken/no-frontmatter",
              "",
              "review/text-method",
              "./review/text-method",
            ],
          }),
        ],
      },
      catalog,
      true,
    );
    expect(diagnostics.map((d) => [d.path, d.code, d.severity])).toEqual([
      ["stage[0].skill_list[0]", "SKILL_ID_OUTSIDE_ROOT", "error"],
      ["stage[0].skill_list[1]", "SKILL_ID_OUTSIDE_ROOT", "error"],
      ["stage[0].skill_list[2]", "SKILL_NOT_FOUND", "error"],
      ["stage[0].skill_list[3]", "SKILL_NOT_FOUND", "error"],
      ["stage[0].skill_list[4]", "SKILL_INVALID", "error"],
      ["stage[0].skill_list[5]", "SKILL_ID_INVALID", "error"],
      ["stage[0].skill_list[7]", "SKILL_ID_DUPLICATE", "warning"],
    ]);
    const byPath = new Map(diagnostics.map((d) => [d.path, d.message]));
    expect(byPath.get("stage[0].skill_list[0]")).toBe(
      `stage 'review' (stage[0]) skill_list[0]: '../outside' is not inside the skill root ${FIXTURE_SKILLS} (absolute paths and '..' are not allowed); use the path below the root, e.g. 'review/static-bug-analysis'.`,
    );
    expect(byPath.get("stage[0].skill_list[2]")).toBe(
      `stage 'review' (stage[0]) skill_list[2]: no skill 'review/missing' in ${FIXTURE_SKILLS}; fix the id (a path below the skill root) or remove it.`,
    );
    expect(byPath.get("stage[0].skill_list[3]")).toBe(
      `stage 'review' (stage[0]) skill_list[3]: no skill 'text-method' in ${FIXTURE_SKILLS} (did you mean 'review/text-method'?); fix the id (a path below the skill root) or remove it.`,
    );
    expect(byPath.get("stage[0].skill_list[4]")).toMatch(
      /^stage 'review' \(stage\[0\]\) skill_list\[4\]: skill 'broken\/no-frontmatter' exists but does not load \(.+\); fix its SKILL\.md \(`skillgate validate`\) or remove it from skill_list\.$/,
    );
  });

  it.each([
    {
      skill: { enable_skill_list: ["review/text-method"] },
      why: "skill.enable_skill_list does not include it",
    },
    { skill: { disable_skill_list: ["missing"] }, why: "skill.disable_skill_list excludes it" },
  ])("names the copy filter that left a stage skill out ($why)", ({ skill, why }) => {
    const diagnostics = validateWorkflow(
      { skill, stage: [stage({ skill_list: ["review/missing"] })] },
      catalog,
      true,
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      `stage 'review' (stage[0]) skill_list[0]: skill 'review/missing' is not in ${FIXTURE_SKILLS} because ${why}, so init did not copy it; change that list and re-run skillgate init, or remove it from skill_list.`,
    ]);
  });

  it("ignores skill_list when skills are disabled, even when invalid or the root is missing", () => {
    const config = { stage: [stage({ skill_list: ["../outside", "review/missing"] })] };
    expect(validateWorkflow(config, null, false)).toEqual([]);
    expect(validateWorkflow({ stage: [stage({ skill_list: "not a list" })] }, null, false)).toEqual([]);
  });

  it("reports a missing skill root once when skills are enabled", () => {
    const config = { stage: [stage({ skill_list: ["a/b"] }), { name: "two", skill_list: ["c/d"] }] };
    expect(validateWorkflow(config, null, true)).toEqual([
      {
        path: "stage[0].skill_list",
        code: "SKILL_ROOT_MISSING",
        severity: "error",
        message:
          "stage 'review' (stage[0]) names skills (a/b) but the workspace skill folder is missing; run `skillgate init <workspace>`, or start with --no-use-skill to work without skills.",
      },
    ]);
  });

  it("reports duplicate stage names and bad checker args with the stage named", () => {
    const diagnostics = validateWorkflow(
      {
        stage: [
          stage({ checker: [{ kind: "regex_count", args: { path: "x.md", pattern: "(" } }] }),
          stage({
            checker: [
              { kind: "file_exists", args: {} },
              { kind: "nope", args: {} },
            ],
          }),
        ],
      },
      catalog,
      true,
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      "stage 'review' (stage[0]) checker[0] (regex_count): args: pattern is not a valid regular expression. Fix the checker's args (see README, checker kinds).",
      "stage 'review' (stage[1]): the name 'review' is already used by stage[0]; stage names must be unique, rename one.",
      "stage 'review' (stage[1]) checker[0] (file_exists): args: give exactly one of path or paths. Fix the checker's args (see README, checker kinds).",
      "stage 'review' (stage[1]) checker[1] (nope): unknown checker kind 'nope' (known: file_exists, markdown_headings, markdown_entries, regex_count, json_schema, command). Fix the checker's args (see README, checker kinds).",
    ]);
  });

  it("warns about general skills that do not load", () => {
    const diagnostics = validateWorkflow(
      { stage: [], skill: { general_skill_list: ["second"] } },
      catalog,
      true,
    );
    expect(diagnostics).toEqual([
      {
        path: "skill.general_skill_list[0]",
        code: "GENERAL_SKILL_NOT_FOUND",
        severity: "warning",
        message: `skill.general_skill_list[0]: no loadable skill 'second' in ${FIXTURE_SKILLS} (did you mean 'hooked/second'?); ListSkill will not show it. Fix the id or remove it.`,
      },
    ]);
  });
});

describe("loadConfig agrees: force_use_skill must be a real boolean", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillgate-wf-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("rejects a quoted 'false' with the stage's key path and file line", async () => {
    const file = join(dir, "config.yaml");
    await writeFile(file, 'stage:\n  - name: review\n    force_use_skill: "false"\n');
    await expect(
      loadConfig({ workspace: dir, configFile: file, env: { SKILLGATE_HOME: join(dir, "home") } }),
    ).rejects.toThrow(
      `${file}:3: stage[0].force_use_skill: expected a boolean (true or false), got "false" (a string); write false without quotes`,
    );
  });
});
