// What init copies (runtime/workspace/plan.ts): skill folders of the pack and extra paths (under ext/), files outside
// skills and VCS/dependency folders left out, enable/disable as UCAgent applies them, clashing ids refused.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findGuideDir, planCopy, planGuides } from "../../runtime/workspace/plan.js";
import { writeTree } from "../skills/helpers.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const md = (name: string) => `---\nname: ${name}\ndescription: d\n---\n`;

function packTree(): { pack: string; extraRoot: string; single: string } {
  temp = tempRoot("skillgate-plan-", { realpath: true });
  writeTree(temp.dir, {
    "pack/review/lint/SKILL.md": md("lint"),
    "pack/review/lint/scripts/run.py": "",
    "pack/review/lint/scripts/__pycache__/run.cpython-311.pyc": "",
    "pack/review/lint/node_modules/dep/index.js": "",
    "pack/review/lint/.git/HEAD": "",
    "pack/review/lint/nested/SKILL.md": md("nested"),
    "pack/review/lint/nested/notes.md": "n",
    "pack/review/README.md": "outside every skill",
    "pack/docs/SKILL.md": md("docs"),
    "script_runner.json": "{}",
    "extra/grp/tool/SKILL.md": md("tool"),
    "single/SKILL.md": md("single"),
    "single/scripts/a.sh": "",
  });
  symlinkSync(join(temp.dir, "pack/docs/SKILL.md"), join(temp.dir, "pack/review/lint/linked.md"));
  return { pack: temp.path("pack"), extraRoot: temp.path("extra"), single: temp.path("single") };
}

describe("planCopy", () => {
  it("plans skill files by their closest skill folder, ext/ ids for extra paths, the runner map beside the pack", async () => {
    const { pack, extraRoot, single } = packTree();
    const plan = await planCopy({ packRoot: pack, extraPaths: [extraRoot, single], enable: [], disable: [] });
    expect(plan.skills).toEqual(["docs", "ext/grp/tool", "ext/single", "review/lint", "review/lint/nested"]);
    expect(plan.files.map((file) => file.rel)).toEqual([
      "docs/SKILL.md",
      "ext/grp/tool/SKILL.md",
      "ext/single/SKILL.md",
      "ext/single/scripts/a.sh",
      "review/lint/SKILL.md",
      "review/lint/nested/SKILL.md",
      "review/lint/nested/notes.md",
      "review/lint/scripts/run.py",
      "script_runner.json",
    ]);
    expect(plan.files.find((file) => file.rel === "script_runner.json")?.source).toBe(
      temp.path("script_runner.json"),
    );
    expect(plan.warnings).toEqual([
      `${join(pack, "review/lint/linked.md")}: symbolic link not copied (copy the real file into the skill)`,
    ]);
    expect(plan.excluded).toEqual([]);
  });

  it.each([
    ["enable by folder name", ["lint"], [], ["review/lint"], []],
    ["enable wins: disable is then ignored", ["docs"], ["docs"], ["docs"], []],
    [
      "disable by id, ext/ id without its prefix",
      [],
      ["review/lint", "grp/tool"],
      ["docs", "review/lint/nested"],
      [],
    ],
    [
      "an entry matching nothing warns",
      [],
      ["./nope/"],
      ["docs", "ext/grp/tool", "review/lint", "review/lint/nested"],
      ['skill.disable_skill_list entry "./nope/" matches no skill id or folder name'],
    ],
  ])("%s", async (_name, enable, disable, skills, warnings) => {
    const { pack, extraRoot } = packTree();
    const plan = await planCopy({ packRoot: pack, extraPaths: [extraRoot], enable, disable });
    expect(plan.skills).toEqual(skills);
    expect(plan.warnings.filter((warning) => warning.startsWith("skill."))).toEqual(warnings);
    expect(new Set([...plan.skills, ...plan.excluded]).size).toBe(4);
  });

  it("refuses two sources giving one id, naming both folders", async () => {
    const { pack } = packTree();
    writeTree(temp.dir, { "a/single/SKILL.md": md("single"), "b/single/SKILL.md": md("single") });
    await expect(
      planCopy({
        packRoot: pack,
        extraPaths: [temp.path("a/single"), temp.path("b/single")],
        enable: [],
        disable: [],
      }),
    ).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: `two skills would be copied to the same id ext/single: ${temp.path("a/single")} and ${temp.path("b/single")}; rename one folder or drop one path from skill.extra_skill_path`,
    });
  });
});

describe("guides", () => {
  it("findGuideDir prefers <pack>/guide_doc, then <pack>/../guide_doc, else null", async () => {
    const { pack } = packTree();
    expect(await findGuideDir(pack)).toBeNull();
    mkdirSync(temp.path("guide_doc"));
    expect(await findGuideDir(pack)).toBe(temp.path("guide_doc"));
    mkdirSync(join(pack, "guide_doc"));
    expect(await findGuideDir(pack)).toBe(join(pack, "guide_doc"));
  });

  it("planGuides lists every guide under guide_doc/, sorted, without VCS folders", async () => {
    temp = tempRoot("skillgate-plan-", { realpath: true });
    writeTree(temp.dir, { "g/b.md": "", "g/a/z.md": "", "g/.git/HEAD": "" });
    const warnings: string[] = [];
    expect((await planGuides(temp.path("g"), warnings)).map((file) => file.rel)).toEqual([
      "guide_doc/a/z.md",
      "guide_doc/b.md",
    ]);
    expect(warnings).toEqual([]);
  });
});
