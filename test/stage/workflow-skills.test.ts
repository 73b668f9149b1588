// Load-time check of skill_list and general_skill_list (workflow-skills.ts): UCAgent's sentences first, then where and the fix; ids that parse, not folders.
import { beforeAll, describe, expect, it } from "vitest";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import type { CatalogSnapshot, Diagnostic } from "../../runtime/skills/types.js";
import { validateWorkflow } from "../../runtime/stage/index.js";
import { checkGeneralSkills, checkSkillList } from "../../runtime/stage/workflow-skills.js";
import { FIXTURE_SKILLS } from "./helpers.js";

let catalog: CatalogSnapshot;
beforeAll(() => {
  catalog = scanSkillRoot(FIXTURE_SKILLS);
});

const stage = (extra: Record<string, unknown>) => ({ name: "review", ...extra });

describe("skill_list through validateWorkflow", () => {
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

describe("checkSkillList and checkGeneralSkills", () => {
  const check = (
    raw: unknown,
    options: { catalog?: CatalogSnapshot | null; reported?: boolean; filters?: object } = {},
  ) => {
    const out: Diagnostic[] = [];
    const missingRoot = checkSkillList(
      raw,
      "stage[2]",
      "stage 'review' (stage[2])",
      "review",
      options.catalog === undefined ? catalog : options.catalog,
      out,
      options.reported ?? false,
      options.filters,
      ".ucagent/skills",
    );
    return { missingRoot, out };
  };

  it("nothing to check: no list, null, an empty list, or only skills that load", () => {
    for (const raw of [undefined, null, []]) expect(check(raw)).toEqual({ missingRoot: false, out: [] });
    expect(check(["review/text-method", "./review/script-method/"])).toEqual({ missingRoot: false, out: [] });
  });

  it("a missing skill root is reported once: the caller passes back what was already reported", () => {
    expect(check(["a/b"], { catalog: null })).toEqual({
      missingRoot: true,
      out: [
        {
          path: "stage[2].skill_list",
          code: "SKILL_ROOT_MISSING",
          severity: "error",
          message:
            "stage 'review' (stage[2]) names skills (a/b) but the workspace skill folder is missing; run `skillgate init <workspace>`, or start with --no-use-skill to work without skills.",
        },
      ],
    });
    expect(check(["a/b"], { catalog: null, reported: true })).toEqual({ missingRoot: true, out: [] });
  });

  it("a duplicate after normalisation is a warning naming the first entry", () => {
    expect(check(["review/text-method", "./review/text-method/"]).out).toEqual([
      {
        path: "stage[2].skill_list[1]",
        code: "SKILL_ID_DUPLICATE",
        severity: "warning",
        message:
          "stage 'review' (stage[2]) skill_list[1]: './review/text-method/' names 'review/text-method' again (skill_list[0]); remove the duplicate.",
      },
    ]);
  });

  it.each([
    [
      "an enable list naming it by folder name (so init copied it: a plain not-found)",
      { enable_skill_list: ["missing"] },
      "no skill 'review/missing' in .ucagent/skills; fix the id (a path below the skill root) or remove it.",
    ],
    [
      "a disable list naming it with ./ and a trailing slash",
      { disable_skill_list: ["./review/missing/"] },
      "skill.disable_skill_list excludes it, so init did not copy it to .ucagent/skills; change that list and re-run skillgate init, or remove it from skill_list.",
    ],
    [
      "an enable list that wins over a disable list naming it",
      { enable_skill_list: ["review/missing"], disable_skill_list: ["review/missing"] },
      "no skill 'review/missing' in .ucagent/skills; fix the id (a path below the skill root) or remove it.",
    ],
  ])("copy filters: %s", (_name, filters, tail) => {
    expect(check(["review/missing"], { filters }).out.map((d) => d.message)).toEqual([
      `Stage 'review' skill 'review/missing' is not found in workspace. (stage[2].skill_list[0]: ${tail})`,
    ]);
  });

  it("general skills: each one that does not load is a warning; a non-list is left to the schema", () => {
    const out: Diagnostic[] = [];
    checkGeneralSkills("review/text-method", catalog, out, "ROOT");
    checkGeneralSkills(["review/text-method", 7, "../x"], catalog, out, "ROOT");
    expect(out).toEqual([
      {
        path: "skill.general_skill_list[1]",
        code: "GENERAL_SKILL_NOT_FOUND",
        severity: "warning",
        message:
          "skill.general_skill_list[1]: no loadable skill '7' in ROOT; ListSkill will not show it. Fix the id or remove it.",
      },
      {
        path: "skill.general_skill_list[2]",
        code: "GENERAL_SKILL_NOT_FOUND",
        severity: "warning",
        message:
          "skill.general_skill_list[2]: no loadable skill '../x' in ROOT; ListSkill will not show it. Fix the id or remove it.",
      },
    ]);
  });
});
