// The skill tree walker (runtime/skills/tree.ts, driven through scanSkillRoot): ids, catalog order, nesting, scripts,
// bounds, skipped folders, symlinks, unreadable files, and re-walking one folder after a change.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareCodePoints, compareIds, scanSkillRoot } from "../../runtime/skills/index.js";
import { SkillTree } from "../../runtime/skills/tree.js";
import { skill, skillMd, tempDir, writeTree } from "./helpers.js";

const cleanup: string[] = [];
function root(): string {
  const dir = tempDir();
  cleanup.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of cleanup.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const ids = (dir: string, options = {}) => scanSkillRoot(dir, options).skills.map((record) => record.id);

describe("catalog order and ids", () => {
  it("orders by code point per path segment: a < a/b < a-b", () => {
    const dir = writeTree(root(), {
      ...skill("a-b"),
      ...skill("a/b"),
      ...skill("a"),
      ...skill("B"),
      ...skill("b"),
    });
    expect(ids(dir)).toEqual(["B", "a", "a/b", "a-b", "b"]);
  });

  it("compares astral characters by code point, not UTF-16 unit", () => {
    // U+FF21 (fullwidth A) < U+1F600 (emoji), although the emoji's first UTF-16 unit (0xD83D) is smaller.
    expect(compareCodePoints("\uFF21", "😀")).toBeLessThan(0);
    expect("😀" < "\uFF21").toBe(true);
    expect(compareIds("x/\uFF21", "x/😀")).toBeLessThan(0);
    const dir = writeTree(root(), { ...skill("😀"), ...skill("\uFF21") });
    expect(ids(dir)).toEqual(["\uFF21", "😀"]);
  });

  it("lists nested skills separately, with path ids relative to the root", () => {
    const dir = writeTree(root(), {
      ...skill("review/static-bug-analysis"),
      ...skill("review/static-bug-analysis/references/deep-dive"),
      ...skill("ext/grp/skill-a"),
      "review/README.md": "not a skill",
    });
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual([
      "ext/grp/skill-a",
      "review/static-bug-analysis",
      "review/static-bug-analysis/references/deep-dive",
    ]);
    const first = snapshot.skills[0];
    expect(first?.root).toBe(dir);
    expect(first?.dir).toBe(path.join(dir, "ext/grp/skill-a"));
    expect(first?.skillFile).toBe(path.join(dir, "ext/grp/skill-a/SKILL.md"));
    expect(first?.body).toBe("# skill-a\n");
    expect(snapshot.skipped).toEqual([]);
  });

  it("needs a file named exactly SKILL.md", () => {
    const dir = writeTree(root(), {
      "lower/skill.md": skillMd("lower"),
      "ok/SKILL.md": skillMd("ok"),
      "dir/SKILL.md/x": "",
    });
    expect(ids(dir)).toEqual(["ok"]);
  });

  it("skips .git and node_modules", () => {
    const dir = writeTree(root(), {
      ...skill("node_modules/pkg"),
      ...skill(".git/hooks"),
      ...skill(".hidden"),
      ...skill("ok"),
    });
    expect(ids(dir)).toEqual([".hidden", "ok"]);
  });
});

describe("scripts and hooks", () => {
  it("lists regular files directly in scripts/ except __init__.py, script_runner.json and dotfiles", () => {
    const dir = writeTree(root(), {
      ...skill("tool", {
        "scripts/run.py": "",
        "scripts/b.sh": "",
        "scripts/helper.ts": "",
        "scripts/__init__.py": "",
        "scripts/script_runner.json": "{}",
        "scripts/.env": "",
        "scripts/sub/deep.py": "",
        "hooks.ts": "export function setupStage() {}",
        "scripts/Z.py": "",
      }),
      ...skill("plain"),
    });
    fs.symlinkSync(path.join(dir, "tool/scripts/run.py"), path.join(dir, "tool/scripts/linked.py"));
    fs.symlinkSync(path.join(dir, "missing.py"), path.join(dir, "tool/scripts/dangling.py"));
    const [plain, tool] = scanSkillRoot(dir).skills;
    expect(tool?.scripts).toEqual(["Z.py", "b.sh", "helper.ts", "linked.py", "run.py"]);
    expect(tool?.hasHooks).toBe(true);
    expect(plain?.scripts).toEqual([]);
    expect(plain?.hasHooks).toBe(false);
  });
});

describe("bounds", () => {
  it("stops at the depth limit with a diagnostic", () => {
    const dir = writeTree(root(), { ...skill("a/b"), ...skill("a/b/c/d") });
    const snapshot = scanSkillRoot(dir, { maxDepth: 2 });
    expect(snapshot.skills.map((record) => record.id)).toEqual(["a/b"]);
    expect(snapshot.skipped).toEqual([
      {
        path: path.join(dir, "a/b"),
        code: "DEPTH_LIMIT",
        message:
          "folder a/b is at the depth limit (2); its sub-folders were not scanned — move skills higher or raise maxDepth",
        severity: "warning",
      },
    ]);
    expect(ids(dir, { maxDepth: 4 })).toEqual(["a/b", "a/b/c/d"]);
  });

  it("stops at the skill count limit with a diagnostic", () => {
    const dir = writeTree(root(), { ...skill("a"), ...skill("b"), ...skill("c") });
    const snapshot = scanSkillRoot(dir, { maxSkills: 2 });
    expect(snapshot.skills.map((record) => record.id)).toEqual(["a", "b"]);
    expect(snapshot.skipped).toEqual([
      {
        path: dir,
        code: "SKILL_LIMIT",
        message: `more than 2 skills under ${dir}; the rest were not loaded — split the skill root or raise maxSkills`,
        severity: "warning",
      },
    ]);
  });
});

describe("bad skills never stop the scan", () => {
  it("skips a non-UTF-8 file and a broken frontmatter while siblings load", () => {
    const dir = writeTree(root(), {
      ...skill("a-good"),
      "b-latin1/SKILL.md": Buffer.concat([
        Buffer.from("---\nname: b-latin1\ndescription: caf"),
        Buffer.from([0xe9]),
        Buffer.from("\n---\n"),
      ]),
      "c-nofm/SKILL.md": "# just markdown\n",
      ...skill("d-good"),
    });
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["a-good", "d-good"]);
    expect(
      snapshot.skipped.map((diagnostic) => [path.relative(dir, diagnostic.path), diagnostic.code]),
    ).toEqual([
      ["b-latin1/SKILL.md", "NOT_UTF8"],
      ["c-nofm/SKILL.md", "NO_FRONTMATTER"],
    ]);
  });

  it("skips unreadable SKILL.md files (dangling link, link loop, FIFO) without blocking", () => {
    // We run as root in CI, so chmod 000 would not make a file unreadable; these fail to read for anyone.
    const dir = writeTree(root(), {
      ...skill("a-good"),
      "b-dangling/x": "",
      "c-loop/x": "",
      "d-fifo/x": "",
      ...skill("e-good"),
    });
    fs.symlinkSync(path.join(dir, "nowhere.md"), path.join(dir, "b-dangling/SKILL.md"));
    fs.symlinkSync("SKILL.md", path.join(dir, "c-loop/SKILL.md"));
    execFileSync("mkfifo", [path.join(dir, "d-fifo/SKILL.md")]);
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["a-good", "e-good"]);
    expect(snapshot.skipped).toEqual([
      {
        path: path.join(dir, "b-dangling/SKILL.md"),
        code: "UNREADABLE",
        message: `cannot read SKILL.md (ENOENT): ${path.join(dir, "b-dangling/SKILL.md")}; make it a readable regular file or remove the folder`,
        severity: "error",
      },
      {
        path: path.join(dir, "c-loop/SKILL.md"),
        code: "UNREADABLE",
        message: `cannot read SKILL.md (ELOOP): ${path.join(dir, "c-loop/SKILL.md")}; make it a readable regular file or remove the folder`,
        severity: "error",
      },
      {
        path: path.join(dir, "d-fifo/SKILL.md"),
        code: "UNREADABLE",
        message: `cannot read SKILL.md: ${path.join(dir, "d-fifo/SKILL.md")} is not a regular file; replace it with a regular UTF-8 text file`,
        severity: "error",
      },
    ]);
  });

  it("reports a missing root as an empty snapshot with a diagnostic", () => {
    const dir = path.join(root(), "nope");
    expect(scanSkillRoot(dir)).toEqual({
      root: dir,
      skills: [],
      skipped: [
        {
          path: dir,
          code: "SKILL_ROOT_MISSING",
          message: `skill root ${dir} does not exist (ENOENT); create it or run "skillgate init" to copy the skill pack into the workspace`,
          severity: "error",
        },
      ],
      generation: 1,
    });
  });

  it("does not list a SKILL.md in the root itself", () => {
    const dir = writeTree(root(), { "SKILL.md": skillMd("top"), ...skill("child") });
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["child"]);
    expect(snapshot.skipped.map((diagnostic) => diagnostic.code)).toEqual(["ROOT_IS_SKILL"]);
  });
});

describe("symlinks", () => {
  it("never follows a folder symlink out of the root, and reports it", () => {
    const outside = writeTree(root(), skill("evil"));
    const dir = writeTree(root(), skill("good"));
    fs.symlinkSync(path.join(outside, "evil"), path.join(dir, "linked"));
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["good"]);
    expect(snapshot.skipped).toEqual([
      {
        path: path.join(dir, "linked"),
        code: "SYMLINK_ESCAPE",
        message: `folder symlink ${path.join(dir, "linked")} points outside the skill root to ${fs.realpathSync(path.join(outside, "evil"))}; not followed — copy that folder into the skill root instead`,
        severity: "warning",
      },
    ]);
  });

  it("does not follow a folder symlink that stays inside the root (no duplicate ids)", () => {
    const dir = writeTree(root(), skill("real/one"));
    fs.symlinkSync(path.join(dir, "real"), path.join(dir, "alias"));
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["real/one"]);
    expect(snapshot.skipped).toEqual([]);
  });

  it("refuses a SKILL.md symlink that points outside the root; accepts one inside", () => {
    const outside = writeTree(root(), { "x/SKILL.md": skillMd("escape") });
    const dir = writeTree(root(), {
      ...skill("good"),
      "escape/x": "",
      "inside/x": "",
      "shared/inside.md": skillMd("inside"),
    });
    fs.symlinkSync(path.join(outside, "x/SKILL.md"), path.join(dir, "escape/SKILL.md"));
    fs.symlinkSync(path.join(dir, "shared/inside.md"), path.join(dir, "inside/SKILL.md"));
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["good", "inside"]);
    expect(
      snapshot.skipped.map((diagnostic) => [path.relative(dir, diagnostic.path), diagnostic.code]),
    ).toEqual([["escape/SKILL.md", "SYMLINK_ESCAPE"]]);
  });
});

describe("SkillTree: refreshing one folder after a change", () => {
  const treeOf = (dir: string) => {
    const tree = new SkillTree(dir);
    tree.scanAll();
    return tree;
  };
  const idsOf = (tree: SkillTree) => tree.snapshot(2).skills.map((record) => record.id);

  it("refreshDir of a parent picks up a new skill folder and forgets a removed one", () => {
    const dir = writeTree(root(), { ...skill("grp/a"), ...skill("grp/b") });
    const tree = treeOf(dir);
    expect(idsOf(tree)).toEqual(["grp/a", "grp/b"]);
    writeTree(dir, skill("grp/c"));
    fs.rmSync(path.join(dir, "grp/a"), { recursive: true });
    tree.refreshDir(path.join(dir, "grp"));
    expect(idsOf(tree)).toEqual(["grp/b", "grp/c"]);
    expect(tree.walkedDirs()).toContain(path.join(dir, "grp/c"));
    expect(tree.walkedDirs()).not.toContain(path.join(dir, "grp/a"));
  });

  it("refreshDir of a skill re-reads its SKILL.md: an edit shows, a broken file is skipped with a diagnostic", () => {
    const dir = writeTree(root(), skill("tool"));
    const tree = treeOf(dir);
    writeTree(dir, { "tool/SKILL.md": skillMd("tool", "Edited.") });
    tree.refreshDir(path.join(dir, "tool"));
    expect(tree.snapshot(2).skills.map((record) => record.description)).toEqual(["Edited."]);
    writeTree(dir, { "tool/SKILL.md": "no frontmatter\n" });
    tree.refreshDir(path.join(dir, "tool"));
    const snapshot = tree.snapshot(3);
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.skipped.map((diagnostic) => diagnostic.path)).toEqual([path.join(dir, "tool/SKILL.md")]);
    expect(snapshot.generation).toBe(3);
  });

  it("refreshDir of scripts/ updates that skill's script list", () => {
    const dir = writeTree(root(), skill("tool", { "scripts/a.py": "" }));
    const tree = treeOf(dir);
    writeTree(dir, { "tool/scripts/b.sh": "" });
    tree.refreshDir(path.join(dir, "tool/scripts"));
    expect(tree.snapshot(2).skills[0]?.scripts).toEqual(["a.py", "b.sh"]);
  });

  it("rewalkDir forgets a replaced subtree and walks it again; a folder it never walked is ignored", () => {
    const dir = writeTree(root(), { ...skill("grp/old"), ...skill("other") });
    const tree = treeOf(dir);
    fs.rmSync(path.join(dir, "grp"), { recursive: true });
    writeTree(dir, { ...skill("grp/new"), ...skill("grp/new/inner") });
    tree.rewalkDir(path.join(dir, "grp"));
    expect(idsOf(tree)).toEqual(["grp/new", "grp/new/inner", "other"]);
    tree.rewalkDir(path.join(dir, "never-seen"));
    tree.refreshDir(path.join(dir, "never-seen"));
    expect(idsOf(tree)).toEqual(["grp/new", "grp/new/inner", "other"]);
  });

  it("a refresh of the root after the root was removed reports it missing", () => {
    const dir = writeTree(root(), skill("tool"));
    const tree = treeOf(dir);
    fs.rmSync(dir, { recursive: true });
    tree.refreshDir(dir);
    const snapshot = tree.snapshot(2);
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.skipped.map((diagnostic) => diagnostic.code)).toEqual([tree.rootMissing?.code]);
    expect(tree.rootMissing).not.toBeNull();
  });
});
