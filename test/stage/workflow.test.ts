// validateWorkflow: strict force_use_skill, checker args, skill_list normalisation and existence (parses, not just a folder).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/config/index.js";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import type { CatalogSnapshot } from "../../runtime/skills/types.js";
import { validateWorkflow } from "../../runtime/stage/index.js";
import { removeTree, tempRoot } from "../support/workspace.js";
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
  });

  // UCAgent's own sentence first (ucagent/stage/vstage.py _init_skill_list), then where and the fix.
  it.each([
    [
      "not a list",
      "review/text-method",
      "stage[0].skill_list",
      "SKILL_LIST_INVALID",
      `Stage 'review' skill_list must be a list. (stage[0].skill_list is "review/text-method" (a string); write skill_list: followed by '- group/skill-name' entries.)`,
    ],
    [
      "an item that is not a string",
      [42],
      "stage[0].skill_list[0]",
      "SKILL_ID_INVALID",
      "Stage 'review' skill_list item must be a string: 42 (stage[0].skill_list[0] is 42 (a number); write the skill id as a string, e.g. 'review/static-bug-analysis').",
    ],
    [
      "an empty item",
      ["  "],
      "stage[0].skill_list[0]",
      "SKILL_ID_INVALID",
      "Stage 'review' skill_list contains an empty skill name. (stage[0].skill_list[0]; remove it or write a skill id.)",
    ],
    [
      "a '..' escape",
      ["../outside"],
      "stage[0].skill_list[0]",
      "SKILL_ID_OUTSIDE_ROOT",
      "Stage 'review' skill '../outside' is outside the workspace skill directory. (stage[0].skill_list[0]: absolute paths and '..' are not allowed; use the path below .ucagent/skills, e.g. 'review/static-bug-analysis'.)",
    ],
    [
      "an absolute path",
      ["/abs/path"],
      "stage[0].skill_list[0]",
      "SKILL_ID_OUTSIDE_ROOT",
      "Stage 'review' skill '/abs/path' is outside the workspace skill directory. (stage[0].skill_list[0]: absolute paths and '..' are not allowed; use the path below .ucagent/skills, e.g. 'review/static-bug-analysis'.)",
    ],
    [
      "a missing skill",
      ["review/missing"],
      "stage[0].skill_list[0]",
      "SKILL_NOT_FOUND",
      "Stage 'review' skill 'review/missing' is not found in workspace. (stage[0].skill_list[0]: no skill 'review/missing' in .ucagent/skills; fix the id (a path below the skill root) or remove it.)",
    ],
    [
      "a bare folder name",
      ["text-method"],
      "stage[0].skill_list[0]",
      "SKILL_NOT_FOUND",
      "Stage 'review' skill 'text-method' is not found in workspace. (stage[0].skill_list[0]: no skill 'text-method' in .ucagent/skills (did you mean 'review/text-method'?); fix the id (a path below the skill root) or remove it.)",
    ],
  ])("reports %s with UCAgent's message", (_what, skillList, path, code, message) => {
    const diagnostics = validateWorkflow({ stage: [stage({ skill_list: skillList })] }, catalog, true, {
      rootLabel: ".ucagent/skills",
    });
    expect(diagnostics).toEqual([{ path, code, severity: "error", message }]);
  });

  it("reports a skill whose SKILL.md does not parse as not found, with the parse error", () => {
    const [d] = validateWorkflow(
      { stage: [stage({ skill_list: ["broken/no-frontmatter"] })] },
      catalog,
      true,
      { rootLabel: ".ucagent/skills" },
    );
    expect(d?.code).toBe("SKILL_INVALID");
    expect(d?.message).toMatch(
      /^Stage 'review' skill 'broken\/no-frontmatter' is not found in workspace\. \(stage\[0\]\.skill_list\[0\]: \.ucagent\/skills\/broken\/no-frontmatter\/SKILL\.md does not load: .+; fix it \(`skillgate validate`\) or remove it from skill_list\.\)$/,
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
      { rootLabel: ".ucagent/skills" },
    );
    expect(diagnostics.map((d) => d.message)).toEqual([
      `Stage 'review' skill 'review/missing' is not found in workspace. (stage[0].skill_list[0]: ${why}, so init did not copy it to .ucagent/skills; change that list and re-run skillgate init, or remove it from skill_list.)`,
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
      "stage 'review' (stage[0]) checker[0] (regex_count): args: pattern is not a valid regular expression. Fix the checker's args (see docs/formats.md, Checker kinds).",
      "stage 'review' (stage[1]): the name 'review' is already used by stage[0]; stage names must be unique, rename one.",
      "stage 'review' (stage[1]) checker[0] (file_exists): args: give exactly one of path or paths. Fix the checker's args (see docs/formats.md, Checker kinds).",
      "stage 'review' (stage[1]) checker[1] (nope): unknown checker kind 'nope' (known: file_exists, markdown_headings, markdown_entries, regex_count, json_schema, command). Fix the checker's args (see docs/formats.md, Checker kinds).",
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
    dir = tempRoot("skillgate-wf-").dir;
  });
  afterAll(async () => {
    removeTree(dir);
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
