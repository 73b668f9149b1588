// The live catalog: every SKILL.md / script change is visible on the very next snapshot(), in both strategies.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Catalog, createCatalog } from "../../runtime/skills/index.js";
import { skill, skillMd, tempDir, writeTree } from "./helpers.js";

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});
function open(root: string, strategy: "watch" | "rescan"): Catalog {
  const catalog = createCatalog(root, { strategy });
  cleanup.push(() => catalog.close());
  return catalog;
}
function root(): string {
  const dir = tempDir();
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
const ids = (catalog: Catalog) => catalog.snapshot().skills.map((record) => record.id);

describe.each(["watch", "rescan"] as const)("createCatalog (%s)", (strategy) => {
  it("sees edits, additions and removals of SKILL.md and scripts on the next snapshot()", () => {
    const dir = writeTree(root(), { ...skill("grp/alpha", { "scripts/run.py": "" }), ...skill("beta") });
    const catalog = open(dir, strategy);
    const first = catalog.snapshot();
    expect(first.skills.map((record) => record.id)).toEqual(["beta", "grp/alpha"]);
    expect(catalog.snapshot()).toBe(first); // unchanged: the same snapshot, same generation

    // Edit in place (same folder, same file).
    fs.writeFileSync(path.join(dir, "beta/SKILL.md"), skillMd("beta", "Edited description."));
    expect(catalog.get("beta")?.description).toBe("Edited description.");
    const edited = catalog.snapshot();
    expect(edited.generation).toBeGreaterThan(first.generation);

    // Atomic replace (write temp + rename), as editors and init do.
    fs.writeFileSync(path.join(dir, "beta/.SKILL.md.tmp"), skillMd("beta", "Renamed into place."));
    fs.renameSync(path.join(dir, "beta/.SKILL.md.tmp"), path.join(dir, "beta/SKILL.md"));
    expect(catalog.get("beta")?.description).toBe("Renamed into place.");

    // A new skill in a new nested folder.
    writeTree(dir, skill("grp/new/gamma"));
    expect(ids(catalog)).toEqual(["beta", "grp/alpha", "grp/new/gamma"]);

    // Scripts added, removed, and a scripts/ folder created from nothing.
    fs.writeFileSync(path.join(dir, "grp/alpha/scripts/second.sh"), "");
    expect(catalog.get("grp/alpha")?.scripts).toEqual(["run.py", "second.sh"]);
    fs.rmSync(path.join(dir, "grp/alpha/scripts/run.py"));
    expect(catalog.get("grp/alpha")?.scripts).toEqual(["second.sh"]);
    writeTree(dir, { "beta/scripts/tool.py": "" });
    expect(catalog.get("beta")?.scripts).toEqual(["tool.py"]);

    // Breaking a SKILL.md drops the skill (with its diagnostic); fixing it brings it back.
    fs.writeFileSync(path.join(dir, "grp/new/gamma/SKILL.md"), "no frontmatter\n");
    const broken = catalog.snapshot();
    expect(broken.skills.map((record) => record.id)).toEqual(["beta", "grp/alpha"]);
    expect(broken.skipped.map((diagnostic) => [path.relative(dir, diagnostic.path), diagnostic.code])).toEqual([
      ["grp/new/gamma/SKILL.md", "NO_FRONTMATTER"],
    ]);
    fs.writeFileSync(path.join(dir, "grp/new/gamma/SKILL.md"), skillMd("gamma"));
    expect(ids(catalog)).toEqual(["beta", "grp/alpha", "grp/new/gamma"]);
    expect(catalog.snapshot().skipped).toEqual([]);

    // Removing SKILL.md, then a whole skill folder.
    fs.rmSync(path.join(dir, "beta/SKILL.md"));
    expect(ids(catalog)).toEqual(["grp/alpha", "grp/new/gamma"]);
    fs.rmSync(path.join(dir, "grp"), { recursive: true });
    expect(ids(catalog)).toEqual([]);
    expect(catalog.get("grp/alpha")).toBeUndefined();
    expect(catalog.activeStrategy()).toBe(strategy);
  });

  it("sees a change made by another process right before snapshot()", () => {
    const dir = writeTree(root(), skill("one"));
    const catalog = open(dir, strategy);
    expect(catalog.get("one")?.description).toBe("Skill one.");
    const file = path.join(dir, "one/SKILL.md");
    const script = `require("node:fs").writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(skillMd("one", "From a child."))})`;
    execFileSync(process.execPath, ["-e", script]);
    expect(catalog.get("one")?.description).toBe("From a child.");
    expect(catalog.activeStrategy()).toBe(strategy);
  });

  it("many quick edits in a row are each visible", () => {
    const dir = writeTree(root(), skill("one"));
    const catalog = open(dir, strategy);
    for (let round = 0; round < 20; round++) {
      fs.writeFileSync(path.join(dir, "one/SKILL.md"), skillMd("one", `Round ${round}.`));
      expect(catalog.get("one")?.description).toBe(`Round ${round}.`);
    }
  });

  it("gives an empty snapshot with a diagnostic for a missing root, and loads it once created", () => {
    const dir = path.join(root(), "skills");
    const catalog = open(dir, strategy);
    const missing = catalog.snapshot();
    expect(missing.skills).toEqual([]);
    expect(missing.skipped.map((diagnostic) => diagnostic.code)).toEqual(["SKILL_ROOT_MISSING"]);
    writeTree(dir, skill("late"));
    expect(ids(catalog)).toEqual(["late"]);
    expect(catalog.activeStrategy()).toBe(strategy);
    writeTree(dir, skill("later"));
    expect(ids(catalog)).toEqual(["late", "later"]);
  });
});
