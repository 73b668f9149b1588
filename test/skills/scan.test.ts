// Discovery entry points (runtime/skills/scan.ts): validateSkillDir on one folder, normaliseSkillId on config-written ids.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { normaliseSkillId, scanSkillRoot, validateSkillDir } from "../../runtime/skills/scan.js";
import { skill, tempDir, writeTree } from "./helpers.js";

const cleanup: string[] = [];
function root(): string {
  const dir = tempDir();
  cleanup.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of cleanup.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("validateSkillDir", () => {
  it("loads one skill with an id relative to the given root", () => {
    const dir = writeTree(root(), skill("grp/tool", { "scripts/run.py": "" }));
    const result = validateSkillDir(path.join(dir, "grp/tool"), "strict", { root: dir });
    expect(result.ok).toBe(true);
    expect(result.skill?.id).toBe("grp/tool");
    expect(result.skill?.scripts).toEqual(["run.py"]);
    expect(validateSkillDir(path.join(dir, "grp/tool")).skill?.id).toBe("tool");
  });

  it("reports a missing folder and a folder without SKILL.md", () => {
    const dir = root();
    expect(validateSkillDir(path.join(dir, "nope")).diagnostics).toEqual([
      {
        path: path.join(dir, "nope"),
        code: "PATH_NOT_FOUND",
        message: `skill folder ${path.join(dir, "nope")} does not exist (ENOENT); check the path`,
        severity: "error",
      },
    ]);
    expect(validateSkillDir(dir).diagnostics).toEqual([
      {
        path: dir,
        code: "NO_SKILL_FILE",
        message: `${dir} holds no file named exactly SKILL.md; add one with name and description frontmatter`,
        severity: "error",
      },
    ]);
  });
});

describe("validateSkillDir refusals and modes", () => {
  it("a file instead of a folder, and a SKILL.md that is a folder", () => {
    const dir = writeTree(root(), { "plain.txt": "x", "odd/SKILL.md/inner": "x" });
    expect(validateSkillDir(path.join(dir, "plain.txt")).diagnostics.map((d) => [d.code, d.message])).toEqual(
      [
        [
          "NOT_A_FOLDER",
          `${path.join(dir, "plain.txt")} is not a folder; pass the folder that holds SKILL.md`,
        ],
      ],
    );
    const odd = path.join(dir, "odd");
    expect(validateSkillDir(odd).diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "UNREADABLE",
        `cannot read SKILL.md: ${path.join(odd, "SKILL.md")} is not a regular file; replace it with a regular UTF-8 text file`,
      ],
    ]);
  });

  it("strict mode refuses what ucagent mode loads with a warning (name differs from the folder)", () => {
    const dir = writeTree(root(), { "tool/SKILL.md": "---\nname: other\ndescription: d\n---\n" });
    const ucagent = validateSkillDir(path.join(dir, "tool"));
    expect(ucagent.ok).toBe(true);
    expect(ucagent.skill?.name).toBe("other");
    expect(ucagent.diagnostics.every((d) => d.severity === "warning")).toBe(true);
    const strict = validateSkillDir(path.join(dir, "tool"), "strict");
    expect(strict.ok).toBe(false);
    expect(strict.skill).toBeUndefined();
  });

  it("reports hooks.ts and the same record scanSkillRoot builds", () => {
    const dir = writeTree(root(), skill("tool", { "hooks.ts": "export {};\n", "scripts/run.py": "" }));
    const one = validateSkillDir(path.join(dir, "tool"), "ucagent", { root: dir });
    expect(one.skill?.hasHooks).toBe(true);
    expect(one.skill).toEqual(scanSkillRoot(dir).skills[0]);
  });
});

describe("normaliseSkillId", () => {
  it.each([
    ["a/b", "a/b"],
    ["./a/b/", "a/b"],
    ["a//b", "a/b"],
    ["a/./b", "a/b"],
    ["a/../b", "b"],
    ["review/static-bug-analysis", "review/static-bug-analysis"],
    ["", null],
    [".", null],
    ["./", null],
    ["/abs/path", null],
    ["..", null],
    ["../a", null],
    ["a/../../b", null],
    ["a/..", null],
    ["a\0b", null],
  ])("%j → %j", (raw, expected) => {
    expect(normaliseSkillId(raw)).toBe(expected);
  });
});
