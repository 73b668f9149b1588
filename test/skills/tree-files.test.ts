// One skill folder for the walker (runtime/skills/tree-files.ts, tree-diagnostics.ts): loadSkillRecord's record or skip, scripts/ listing,
// catalog order of ids, the skill root's checks and the walker's diagnostics, with exact messages.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  depthLimit,
  dirSymlinkEscape,
  resolveRoot,
  rootIsSkill,
  skillLimit,
} from "../../runtime/skills/tree-diagnostics.js";
import {
  childPath,
  compareIds,
  loadSkillRecord,
  scriptNames,
  toId,
} from "../../runtime/skills/tree-files.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { skill, skillMd, writeTree } from "./helpers.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const entries = (dir: string) => fs.readdirSync(dir, { withFileTypes: true });

describe("loadSkillRecord", () => {
  const folder = (dir: string, id: string, extra: Partial<Parameters<typeof loadSkillRecord>[0]> = {}) => ({
    dir,
    id,
    root: path.dirname(dir),
    mode: "ucagent" as const,
    hasHooks: false,
    scriptsEntries: [],
    isRegular: true,
    linkRoot: undefined,
    ...extra,
  });

  it("builds the record from SKILL.md and the scripts listing it is given", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    writeTree(temp.dir, skill("tool", { "scripts/b.sh": "", "scripts/a.py": "" }));
    const dir = temp.path("tool");
    const loaded = loadSkillRecord(
      folder(dir, "tool", { scriptsEntries: entries(path.join(dir, "scripts")) }),
    );
    expect("skill" in loaded && loaded.skill).toMatchObject({
      id: "tool",
      dir,
      skillFile: path.join(dir, "SKILL.md"),
      name: "tool",
      description: "Skill tool.",
      scripts: ["a.py", "b.sh"],
      hasHooks: false,
      diagnostics: [],
    });
  });

  it("skips a SKILL.md that is not a regular file without opening it", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    const dir = temp.path("fifo");
    fs.mkdirSync(dir);
    expect(loadSkillRecord(folder(dir, "fifo", { isRegular: false }))).toEqual({
      skipped: [
        {
          path: path.join(dir, "SKILL.md"),
          code: "UNREADABLE",
          message: `cannot read SKILL.md: ${path.join(dir, "SKILL.md")} is not a regular file; replace it with a regular UTF-8 text file`,
          severity: "error",
        },
      ],
    });
  });

  it("skips a file that fails parsing with the parser's diagnostic", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    writeTree(temp.dir, { "bad/SKILL.md": "---\nname: bad\n---\n" });
    const loaded = loadSkillRecord(folder(temp.path("bad"), "bad"));
    expect("skipped" in loaded && loaded.skipped.map((d) => d.code)).toEqual(["DESCRIPTION_MISSING"]);
  });
});

describe("scriptNames", () => {
  it("lists regular files and links to files, sorted by code point, minus __init__.py, script_runner.json and dotfiles", () => {
    temp = tempRoot("skillgate-tree-files-");
    const dir = temp.path("scripts");
    writeTree(dir, {
      "b.py": "",
      "A.sh": "",
      "\u{1f600}.py": "",
      "\uffff.py": "",
      "__init__.py": "x",
      "script_runner.json": "{}",
      ".hidden": "",
      "sub/x.py": "",
    });
    fs.symlinkSync(path.join(dir, "b.py"), path.join(dir, "link.py"));
    fs.symlinkSync(path.join(dir, "gone.py"), path.join(dir, "dangling.py"));
    fs.symlinkSync(path.join(dir, "sub"), path.join(dir, "folder-link"));
    expect(scriptNames(dir, entries(dir))).toEqual(["A.sh", "b.py", "link.py", "\uffff.py", "\u{1f600}.py"]);
  });
});

describe("ids and order", () => {
  it("compareIds orders segment by segment: a < a/b < a-b < b", () => {
    expect(["b", "a-b", "a/b", "a", "a/b/c", "a/a"].sort(compareIds)).toEqual([
      "a",
      "a/a",
      "a/b",
      "a/b/c",
      "a-b",
      "b",
    ]);
    expect(compareIds("x/y", "x/y")).toBe(0);
  });

  it("toId joins with / and childPath does not double a slash", () => {
    expect(toId(path.join("grp", "sub", "skill"))).toBe("grp/sub/skill");
    expect(childPath("/r/", "SKILL.md")).toBe("/r/SKILL.md");
    expect(childPath("/r", "SKILL.md")).toBe("/r/SKILL.md");
  });
});

describe("the skill root and the walker's diagnostics", () => {
  it("resolveRoot: the real path of a folder (through a link); a missing root or a file is SKILL_ROOT_MISSING", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    fs.mkdirSync(temp.path("real"));
    fs.symlinkSync(temp.path("real"), temp.path("link"));
    expect(resolveRoot(temp.path("link"))).toEqual({ realRoot: temp.path("real") });
    expect(resolveRoot(temp.path("none")).missing).toEqual({
      path: temp.path("none"),
      code: "SKILL_ROOT_MISSING",
      message: `skill root ${temp.path("none")} does not exist (ENOENT); create it or run "skillgate init" to copy the skill pack into the workspace`,
      severity: "error",
    });
    fs.writeFileSync(temp.path("file"), "");
    expect(resolveRoot(temp.path("file")).missing?.message).toBe(
      `skill root ${temp.path("file")} is not a folder; point the skill root at the folder that holds the skill folders`,
    );
  });

  it("dirSymlinkEscape reports a folder link that leaves the root, not one inside or a link to a file", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    writeTree(temp.dir, { "root/inner/SKILL.md": skillMd("inner"), "outside/x": "", "root/file": "" });
    const root = temp.path("root");
    fs.symlinkSync(temp.path("outside"), path.join(root, "out"));
    fs.symlinkSync(path.join(root, "inner"), path.join(root, "in"));
    fs.symlinkSync(path.join(root, "file"), path.join(root, "file-link"));
    const byName = (name: string) => entries(root).find((entry) => entry.name === name) as fs.Dirent;
    expect(dirSymlinkEscape(root, byName("out"), root)).toEqual({
      path: path.join(root, "out"),
      code: "SYMLINK_ESCAPE",
      message: `folder symlink ${path.join(root, "out")} points outside the skill root to ${temp.path("outside")}; not followed — copy that folder into the skill root instead`,
      severity: "warning",
    });
    expect(dirSymlinkEscape(root, byName("in"), root)).toBeNull();
    expect(dirSymlinkEscape(root, byName("file-link"), root)).toBeNull();
  });

  it("rootIsSkill, skillLimit and depthLimit say what was not loaded and the fix", () => {
    expect(rootIsSkill("/r").message).toBe(
      "the skill root /r itself holds SKILL.md, so it has no id and is not listed; use its parent folder as the skill root",
    );
    expect(skillLimit("/r", 5).message).toBe(
      "more than 5 skills under /r; the rest were not loaded — split the skill root or raise maxSkills",
    );
    expect(depthLimit("/r/a/b", "a/b", 2).message).toBe(
      "folder a/b is at the depth limit (2); its sub-folders were not scanned — move skills higher or raise maxDepth",
    );
    expect(depthLimit("/r", "", 0).message).toContain("folder . is at the depth limit (0)");
  });
});
