// The bundled pack as a whole: every SKILL.md passes strict spec validation, every helper has a runner, ids and hooks are where the catalog expects.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanSkillRoot, validateSkillDir } from "../../runtime/skills/index.js";
import { REPO, SKILLS } from "./support.js";

const EXPECTED_IDS = [
  "authoring/skill-creator",
  "review/static-bug-analysis",
  "runners/js-runner",
  "runners/python-runner",
];
const topLevelRunners = JSON.parse(readFileSync(join(REPO, "script_runner.json"), "utf8")) as Record<
  string,
  string
>;
const BUILT_IN = { ".py": "python3", ".sh": "bash", ".bash": "bash" } as Record<string, string>;

function skillRunners(id: string): Record<string, string> {
  const file = join(SKILLS, id, "scripts", "script_runner.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
}

describe("the bundled pack", () => {
  const snapshot = scanSkillRoot(SKILLS, { mode: "ucagent" });

  it("loads exactly the four skills, with no diagnostics, in catalog order", () => {
    expect(snapshot.skills.map((s) => s.id)).toEqual(EXPECTED_IDS);
    expect(snapshot.skipped).toEqual([]);
    for (const skill of snapshot.skills) expect(skill.diagnostics, skill.id).toEqual([]);
  });

  it.each(EXPECTED_IDS)("%s passes strict spec validation", (id) => {
    const result = validateSkillDir(join(SKILLS, id), "strict", { root: SKILLS });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("maps the top-level runners by extension", () => {
    expect(topLevelRunners).toEqual({ ".ts": "tsx", ".js": "node", ".mjs": "node" });
  });

  it.each(EXPECTED_IDS)(
    "%s: every script has a runner and every .ts helper is mapped to tsx in its skill",
    (id) => {
      const skill = snapshot.skills.find((s) => s.id === id)!;
      const own = skillRunners(id);
      for (const name of Object.keys(own))
        expect(skill.scripts, `${id} maps ${name} which is not a script`).toContain(name);
      for (const script of skill.scripts) {
        const ext = extname(script);
        if (ext === ".ts") expect(own[script], `${id}/${script}`).toBe("tsx");
        const runner = own[script] ?? topLevelRunners[ext] ?? BUILT_IN[ext];
        expect(runner, `${id}/${script} has no runner`).toMatch(/^[a-z0-9]+$/);
      }
    },
  );

  it("lists the expected helpers per skill (library modules live in scripts/lib, not listed)", () => {
    expect(Object.fromEntries(snapshot.skills.map((s) => [s.id, s.scripts]))).toEqual({
      "authoring/skill-creator": ["create_skill.mjs", "package_skill.mjs", "validate_skill.mjs"],
      "review/static-bug-analysis": ["list_bugs.ts", "record_bug.ts"],
      "runners/js-runner": ["get_temp_path.mjs", "run_bun_script.mjs"],
      "runners/python-runner": ["get_temp_path.py", "run_uv_script.py"],
    });
  });

  it("declares network and caches for the runners in metadata, and a hook only for static-bug-analysis", () => {
    const byId = Object.fromEntries(snapshot.skills.map((s) => [s.id, s]));
    expect(byId["runners/python-runner"]!.metadata).toEqual({
      "skillgate-network": "true",
      "skillgate-cache": "uv",
    });
    expect(byId["runners/js-runner"]!.metadata).toEqual({
      "skillgate-network": "true",
      "skillgate-cache": "bun",
    });
    expect(snapshot.skills.filter((s) => s.hasHooks).map((s) => s.id)).toEqual([
      "review/static-bug-analysis",
    ]);
  });

  it("keeps .ts files only where tsx runs them (helpers, their lib, hooks.ts)", () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
      );
    const tsFiles = walk(SKILLS)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => f.slice(SKILLS.length + 1))
      .sort();
    expect(tsFiles).toEqual([
      "review/static-bug-analysis/hooks.ts",
      "review/static-bug-analysis/scripts/lib/bug_format.ts",
      "review/static-bug-analysis/scripts/list_bugs.ts",
      "review/static-bug-analysis/scripts/record_bug.ts",
    ]);
  });
});
