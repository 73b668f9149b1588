// The live catalog: every SKILL.md / script change is visible on the very next snapshot(), in both strategies.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Catalog, createCatalog, scanSkillRoot } from "../../runtime/skills/index.js";
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
    expect(
      broken.skipped.map((diagnostic) => [path.relative(dir, diagnostic.path), diagnostic.code]),
    ).toEqual([["grp/new/gamma/SKILL.md", "NO_FRONTMATTER"]]);
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

  it("keeps watching folders that were deleted, moved away or replaced and then re-created", () => {
    const dir = writeTree(root(), { ...skill("grp/one"), ...skill("grp/two") });
    const catalog = open(dir, strategy);
    expect(ids(catalog)).toEqual(["grp/one", "grp/two"]);

    // Replace the whole group (rm -rf, recreate with the same names): old watches are dead.
    fs.rmSync(path.join(dir, "grp"), { recursive: true });
    writeTree(dir, { ...skill("grp/one"), ...skill("grp/two") });
    expect(ids(catalog)).toEqual(["grp/one", "grp/two"]);
    fs.writeFileSync(path.join(dir, "grp/two/SKILL.md"), skillMd("two", "Edited after replace."));
    expect(catalog.get("grp/two")?.description).toBe("Edited after replace.");

    // Move the group away and create a new one with the same name and a same-named sub-folder.
    fs.renameSync(path.join(dir, "grp"), path.join(dir, "old-grp"));
    writeTree(dir, skill("grp/one", { "scripts/new.py": "" }));
    expect(ids(catalog)).toEqual(["grp/one", "old-grp/one", "old-grp/two"]);
    expect(catalog.get("grp/one")?.scripts).toEqual(["new.py"]);
    fs.writeFileSync(path.join(dir, "grp/one/scripts/second.py"), "");
    fs.writeFileSync(path.join(dir, "old-grp/one/SKILL.md"), skillMd("one", "Moved and edited."));
    expect(catalog.get("grp/one")?.scripts).toEqual(["new.py", "second.py"]);
    expect(catalog.get("old-grp/one")?.description).toBe("Moved and edited.");

    // Replace a scripts/ folder wholesale.
    fs.rmSync(path.join(dir, "grp/one/scripts"), { recursive: true });
    writeTree(dir, { "grp/one/scripts/replaced.sh": "" });
    expect(catalog.get("grp/one")?.scripts).toEqual(["replaced.sh"]);
    fs.writeFileSync(path.join(dir, "grp/one/scripts/after.sh"), "");
    expect(catalog.get("grp/one")?.scripts).toEqual(["after.sh", "replaced.sh"]);
    expect(catalog.activeStrategy()).toBe(strategy);
  });

  it.each([11, 23, 37])("always equals a fresh scan after random edits (model check, seed %i)", (start) => {
    const dir = writeTree(root(), { ...skill("a/x"), ...skill("b") });
    const catalog = open(dir, strategy);
    let seed = start;
    const pick = <T>(items: T[]): T => {
      seed = (seed * 48271) % 2147483647;
      return items[seed % items.length] as T;
    };
    const folders = ["a", "a/x", "a/y", "b", "b/c", "c", "c/d/e", "a/x/scripts", "b/scripts"];
    for (let step = 0; step < 100; step++) {
      const folder = path.join(dir, pick(folders));
      const action = pick(["write", "write", "break", "script", "unscript", "remove", "move", "replace"]);
      fs.mkdirSync(folder, { recursive: true });
      if (action === "write")
        fs.writeFileSync(path.join(folder, "SKILL.md"), skillMd(path.basename(folder), `Step ${step}.`));
      if (action === "break") fs.writeFileSync(path.join(folder, "SKILL.md"), `---\nname: [\n---\n`);
      if (action === "script") writeTree(folder, { [`scripts/s${step % 3}.py`]: "" });
      if (action === "unscript") fs.rmSync(path.join(folder, `scripts/s${step % 3}.py`), { force: true });
      if (action === "remove") fs.rmSync(folder, { recursive: true, force: true });
      if (action === "move") {
        const target = path.join(dir, pick(folders));
        const related =
          target === folder || target.startsWith(`${folder}/`) || folder.startsWith(`${target}/`);
        if (!related) {
          fs.rmSync(target, { recursive: true, force: true });
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.renameSync(folder, target);
        }
      }
      if (action === "replace") {
        fs.rmSync(folder, { recursive: true, force: true });
        writeTree(folder, { "SKILL.md": skillMd(path.basename(folder), `Replaced ${step}.`) });
      }
      const fresh = scanSkillRoot(dir);
      const live = catalog.snapshot();
      expect({ skills: live.skills, skipped: live.skipped }, `step ${step}: ${action} ${folder}`).toEqual({
        skills: fresh.skills,
        skipped: fresh.skipped,
      });
    }
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
