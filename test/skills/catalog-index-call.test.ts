// `skillgate call ListSkill` served from the catalog index still answers as a fresh scan after skill edits between calls.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { type Fixture, GATE_SKILL, makeFixture, REPO_ROOT, tamper } from "../tools/helpers.js";

const run = promisify(execFile);
let fixture: Fixture;

beforeAll(() => {
  ensureBuilt();
  fixture = makeFixture({ general: ["fixture/text-skill"] });
}, 600_000);
afterAll(() => fixture?.cleanup());

async function listSkill(): Promise<string> {
  const args = [BUILT_MAIN, "call", "ListSkill", "--workspace", fixture.ws, "--config", fixture.configFile];
  const { stdout } = await run(process.execPath, args, { cwd: REPO_ROOT, env: fixture.env });
  return stdout;
}

const indexDir = () => join(fixture.home, "cache", "catalog");
const indexFiles = () =>
  existsSync(indexDir()) ? readdirSync(indexDir()).filter((name) => name.endsWith(".index")) : [];

describe("ListSkill through the catalog index", () => {
  it("edits, additions and removals of SKILL.md and scripts/ files between two calls give fresh results", async () => {
    const first = await listSkill();
    expect(first).toContain("1. Skill Name: gate-skill");
    expect(first).toContain("Skill Name: text-skill");
    // The index is written by the first call after the copied pack has settled (2 s after init).
    for (let attempt = 0; indexFiles().length === 0; attempt++) {
      if (attempt === 40) throw new Error(`no catalog index in ${indexDir()} after 40 calls`);
      expect(await listSkill()).toBe(first);
    }
    expect(await listSkill()).toBe(first); // served from the index

    const skills = join(fixture.ws, ".ucagent", "skills");
    const gate = join(skills, GATE_SKILL);
    chmodSync(gate, 0o755);
    chmodSync(join(gate, "scripts"), 0o755);
    tamper(
      join(gate, "SKILL.md"),
      "---\nname: gate-skill\ndescription: Edited between two calls.\n---\n# Gate\n",
    );
    writeFileSync(join(gate, "scripts", "new_tool.py"), "print('new')\n");
    rmSync(join(gate, "scripts", "fail.sh"));
    chmodSync(join(skills, "fixture", "text-skill"), 0o755);
    rmSync(join(skills, "fixture", "text-skill", "SKILL.md"));

    const second = await listSkill();
    expect(second).toContain("Skill Description: Edited between two calls.");
    expect(second).toContain("- new_tool.py: .ucagent/skills/fixture/gate-skill/scripts/new_tool.py");
    expect(second).not.toContain("fail.sh");
    expect(second).not.toContain("text-skill");
    expect(second).toMatch(/^Found 1 available skills:\n/);
    // A fresh scan (no index at all) gives exactly the same answer.
    rmSync(indexDir(), { recursive: true, force: true });
    expect(await listSkill()).toBe(second);
  }, 600_000);
});
