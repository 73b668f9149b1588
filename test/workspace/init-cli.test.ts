import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/process.js";
import { FIXTURE_PACK, FIXTURE_SINGLE_SKILL, tempDir } from "./helpers.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HARNESS = fileURLToPath(new URL("./init-cli-main.ts", import.meta.url));

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.cleanup());

function cli(args: string[]) {
  return runProcess(process.execPath, ["--import", "tsx", HARNESS, ...args], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, SKILLGATE_HOME: join(tmp.dir, "home"), NO_COLOR: "1" },
  });
}

describe("skillgate init", () => {
  it("initialises with --config and --extra-skill-path and prints JSON", async () => {
    const ws = join(tmp.dir, "ws1");
    const config = join(tmp.dir, "c.yaml");
    // The default workflow names pack skills this fixture pack lacks, which would stop init.
    writeFileSync(config, `skill:\n  pack_path: ${FIXTURE_PACK}\nstage: []\n`);
    const result = await cli([
      "init",
      ws,
      "--config",
      config,
      "--extra-skill-path",
      FIXTURE_SINGLE_SKILL,
      "--json",
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(true);
    expect(report.skills).toContain("ext/single-skill");
    expect(report.config_sources).toContain(config);
    expect(existsSync(join(ws, ".ucagent/skills/ext/single-skill/SKILL.md"))).toBe(true);
  });

  it("--no-use-skill copies nothing; --progress prints progress to stderr", async () => {
    const off = await cli(["init", join(tmp.dir, "ws2"), "--no-use-skill"]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("Skills: disabled (nothing copied)");
    // Guides are not skills: they reach the workspace with skills off too.
    expect(off.stdout).toContain(`Guides: 3 in ${join(tmp.dir, "ws2", "guide_doc")} from `);
    expect(existsSync(join(tmp.dir, "ws2/.ucagent/skills"))).toBe(false);

    const config = join(tmp.dir, "p.yaml");
    // The default workflow names pack skills this fixture pack lacks, which would stop init.
    writeFileSync(config, `skill:\n  pack_path: ${FIXTURE_PACK}\nstage: []\n`);
    const on = await cli(["init", join(tmp.dir, "ws3"), "--config", config, "--progress"]);
    expect(on.code).toBe(0);
    expect(on.stderr).toContain("copying skills: 7/7 files");
  });

  it("flag conflict exits 2 before checking the path; bad config exits 1 naming the file", async () => {
    const conflict = await cli([
      "init",
      join(tmp.dir, "ws4"),
      "--extra-skill-path",
      "/no/such",
      "--no-use-skill",
    ]);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toBe(
      "error [FLAG_CONFLICT]: --extra-skill-path cannot be used with --no-use-skill\n",
    );

    const ws = join(tmp.dir, "ws5");
    mkdirSync(join(ws, ".ucagent"), { recursive: true });
    const setting = join(ws, ".ucagent/setting.yaml");
    writeFileSync(setting, "skill:\n  use_skill: 'no'\n");
    const bad = await cli(["init", ws, "--json"]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({
      ok: false,
      error: {
        code: "CONFIG_INVALID",
        message: `invalid config: ${setting}:2: skill.use_skill: expected a boolean (true or false), got "no" (a string); write false instead`,
        details: expect.any(Object),
      },
    });
  });
});
