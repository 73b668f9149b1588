// One skill folder for the walker (runtime/skills/tree-files.ts): loadSkillRecord's record or skip, scripts/ listing,
// catalog order of ids.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  childPath,
  compareIds,
  loadSkillRecord,
  scriptNames,
  toId,
} from "../../runtime/skills/tree-files.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { skill, writeTree } from "./helpers.js";

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
