// The on-disk catalog index: served only while every folder and file it rests on is unchanged, else a fresh scan.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CatalogIndexStore, scanSkillRoot, scanSkillRootIndexed } from "../../runtime/skills/index.js";
import { skill, skillMd, tempDir, writeTree } from "./helpers.js";

/** A store writing synchronously; its clock runs 10 s ahead, so a tree written just now counts as settled. */
function store(dir: string, now = () => Date.now() + 10_000): CatalogIndexStore & { writes: number } {
  const result = {
    file: path.join(dir, "catalog.index"),
    writes: 0,
    write: (file: string, text: string) => {
      result.writes += 1;
      fs.writeFileSync(`${file}.tmp`, text);
      fs.renameSync(`${file}.tmp`, file);
    },
    now,
  };
  return result;
}

/** A tree with what the walker reads: nested skills, scripts, a Python hook, hooks.ts, warnings and skipped skills. */
function makeTree(): string {
  const root = path.join(tempDir("skillgate-index-"), "skills");
  writeTree(root, {
    ...skill("review/lint", { "scripts/check.py": "print(1)\n", "scripts/__init__.py": "x = 1\n" }),
    ...skill("review/lint/nested"),
    ...skill("tools/gen", { "hooks.ts": "export {};\n", "scripts/run.sh": "echo\n" }),
    "meta/SKILL.md": `---\nname: other-name\ndescription: Metadata and a list.\nmetadata:\n  n: 1\n  list: [a, b]\nextra: [1, 2.5, true, null]\n---\nBody\n`,
    "broken/SKILL.md": "# no frontmatter\n",
    "empty-dir/.keep": "",
  });
  return root;
}

const fresh = (root: string) => ({ ...scanSkillRoot(root), generation: 1 });

describe("scanSkillRootIndexed", () => {
  it("writes the index on a fresh scan, then serves exactly what a fresh scan gives", () => {
    const root = makeTree();
    const cache = store(tempDir());
    const first = scanSkillRootIndexed(root, cache);
    expect(first.source).toBe("scan");
    expect(cache.writes).toBe(1);
    expect(first.snapshot).toEqual(fresh(root));
    const second = scanSkillRootIndexed(root, cache);
    expect(second.source).toBe("index");
    expect(second.snapshot).toEqual(fresh(root));
    expect(JSON.stringify(second.snapshot)).toBe(JSON.stringify(first.snapshot));
    expect(cache.writes).toBe(1);
  });

  const changes: Array<[string, (root: string) => void]> = [
    [
      "SKILL.md rewritten with the same size",
      (root) => {
        const file = path.join(root, "tools/gen/SKILL.md");
        fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("Skill gen.", "Skill GEN."));
      },
    ],
    ["SKILL.md removed", (root) => fs.rmSync(path.join(root, "review/lint/nested/SKILL.md"))],
    ["skill added in a new folder", (root) => writeTree(root, skill("review/new-one"))],
    ["skill added in a folder that had none", (root) => writeTree(root, skill("empty-dir/now"))],
    ["script added", (root) => writeTree(root, { "tools/gen/scripts/more.py": "print(2)\n" })],
    ["script removed", (root) => fs.rmSync(path.join(root, "review/lint/scripts/check.py"))],
    ["scripts/ created", (root) => writeTree(root, { "meta/scripts/a.py": "\n" })],
    [
      "__init__.py emptied (the Python-hook warning goes)",
      (root) => fs.writeFileSync(path.join(root, "review/lint/scripts/__init__.py"), ""),
    ],
    ["hooks.ts removed", (root) => fs.rmSync(path.join(root, "tools/gen/hooks.ts"))],
    [
      "broken skill repaired",
      (root) => fs.writeFileSync(path.join(root, "broken/SKILL.md"), skillMd("broken")),
    ],
    [
      "skill folder renamed",
      (root) => fs.renameSync(path.join(root, "tools/gen"), path.join(root, "tools/gen2")),
    ],
  ];
  it.each(changes)("%s: the next scan is fresh, never the index", (_name, change) => {
    const root = makeTree();
    const cache = store(tempDir());
    const before = scanSkillRootIndexed(root, cache);
    expect(scanSkillRootIndexed(root, cache).source).toBe("index");
    change(root);
    const after = scanSkillRootIndexed(root, cache);
    expect(after.source).toBe("scan");
    expect(after.snapshot).toEqual(fresh(root));
    expect(after.snapshot).not.toEqual(before.snapshot);
    // The rewritten index now serves the new tree.
    const again = scanSkillRootIndexed(root, cache);
    expect(again.source).toBe("index");
    expect(again.snapshot).toEqual(fresh(root));
  });

  const corruptions: Array<[string, (text: string) => string]> = [
    ["truncated", (text) => text.slice(0, text.length - 10)],
    ["a byte changed in the payload", (text) => text.replace("Metadata and a list.", "Metadata and a lisT.")],
    ["empty", () => ""],
    ["not JSON, checksum recomputed", (text) => reseal(text, () => "{nope")],
    [
      "a skill's scripts not a list, checksum recomputed",
      (text) => reseal(text, (json) => json.replace('"scripts":["check.py"]', '"scripts":"check.py"')),
    ],
    [
      "skills out of catalog order, checksum recomputed",
      (text) =>
        reseal(text, (json) => {
          const body = JSON.parse(json);
          body.skills.reverse();
          return JSON.stringify(body);
        }),
    ],
    [
      "a stamp digest that no longer matches, checksum recomputed",
      (text) =>
        reseal(text, (json) => {
          const body = JSON.parse(json);
          body.digest = "0".repeat(64);
          return JSON.stringify(body);
        }),
    ],
    [
      "another root, checksum recomputed",
      (text) =>
        reseal(text, (json) => {
          const body = JSON.parse(json);
          body.root = `${body.root}-other`;
          return JSON.stringify(body);
        }),
    ],
  ];
  it.each(corruptions)("index %s: a fresh scan, and the index is rewritten", (_name, corrupt) => {
    const root = makeTree();
    const cache = store(tempDir());
    scanSkillRootIndexed(root, cache);
    fs.writeFileSync(cache.file, corrupt(fs.readFileSync(cache.file, "utf8")));
    const after = scanSkillRootIndexed(root, cache);
    expect(after.source).toBe("scan");
    expect(after.snapshot).toEqual(fresh(root));
    expect(cache.writes).toBe(2);
    expect(scanSkillRootIndexed(root, cache).source).toBe("index");
  });

  const sameContent: Array<[string, (root: string) => void]> = [
    ["a chmod of SKILL.md (ctime)", (root) => fs.chmodSync(path.join(root, "meta/SKILL.md"), 0o600)],
    [
      "a skill folder replaced by an identical copy (inode)",
      (root) => {
        fs.cpSync(path.join(root, "meta"), path.join(root, "meta.new"), { recursive: true });
        fs.rmSync(path.join(root, "meta"), { recursive: true });
        fs.renameSync(path.join(root, "meta.new"), path.join(root, "meta"));
      },
    ],
  ];
  it.each(sameContent)(
    "%s is a change even with the same content: the next scan is fresh",
    (_name, change) => {
      const root = makeTree();
      const cache = store(tempDir());
      scanSkillRootIndexed(root, cache);
      change(root);
      const after = scanSkillRootIndexed(root, cache);
      expect(after.source).toBe("scan");
      expect(after.snapshot).toEqual(fresh(root));
    },
  );

  it("does not index a tree changed within the settle window, one holding a symlink, or a missing root", () => {
    const root = makeTree();
    const unsettled = store(tempDir(), () => Date.now());
    expect(scanSkillRootIndexed(root, unsettled).source).toBe("scan");
    expect(unsettled.writes).toBe(0);
    const linked = makeTree();
    fs.symlinkSync(path.join(linked, "meta/SKILL.md"), path.join(linked, "tools/gen/scripts/link.md"));
    const withLink = store(tempDir());
    expect(scanSkillRootIndexed(linked, withLink).snapshot).toEqual(fresh(linked));
    expect(withLink.writes).toBe(0);
    const missing = store(tempDir());
    expect(scanSkillRootIndexed(path.join(root, "nope"), missing).snapshot).toEqual(
      fresh(path.join(root, "nope")),
    );
    expect(missing.writes).toBe(0);
  });

  it("does not index a frontmatter JSON cannot give back (a set)", () => {
    const root = path.join(tempDir("skillgate-index-"), "skills");
    writeTree(root, { "s/SKILL.md": "---\nname: s\ndescription: A set.\ntags: !!set {a, b}\n---\n" });
    const cache = store(tempDir());
    const result = scanSkillRootIndexed(root, cache);
    expect(result.snapshot.skills[0]?.frontmatter.tags).toBeInstanceOf(Set);
    expect(cache.writes).toBe(0);
  });
});

function reseal(text: string, edit: (json: string) => string): string {
  const newline = text.indexOf("\n");
  const magic = text.slice(0, newline).split(" ").slice(0, 2).join(" ");
  const json = edit(text.slice(newline + 1));
  return `${magic} ${createHash("sha256").update(json).digest("hex")}\n${json}`;
}
