// validateWorkflow (workflow.ts): strict force_use_skill, checker args, unique stage names, skill_list ignored with skills off (its entries: workflow-skills.test.ts).
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

  it("ignores skill_list when skills are disabled, even when invalid or the root is missing", () => {
    const config = { stage: [stage({ skill_list: ["../outside", "review/missing"] })] };
    expect(validateWorkflow(config, null, false)).toEqual([]);
    expect(validateWorkflow({ stage: [stage({ skill_list: "not a list" })] }, null, false)).toEqual([]);
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
