// `skillgate init` as a real process: --config/--extra-skill-path JSON report, --no-use-skill, progress, flag and config errors.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN, TSX } from "../../mcp/helpers.js";
import { runProcess } from "../../support/process.js";
import { type TempRoot, tempRoot } from "../../support/workspace.js";
import { type Fixture, makeFixture } from "../../tools/helpers.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../../fixtures/workspace/", import.meta.url));
const FIXTURE_PACK = join(FIXTURES, "pack");
const FIXTURE_SINGLE_SKILL = join(FIXTURES, "single-skill");

let tmp: TempRoot;
beforeAll(() => {
  tmp = tempRoot("skillgate-init-cli-");
});
afterAll(() => tmp.cleanup());

function cli(args: string[]) {
  return runProcess(TSX, [MAIN, ...args], {
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

describe("skillgate init --dut", () => {
  const fixtures: Fixture[] = [];
  const fixture = () => {
    const made = makeFixture();
    fixtures.push(made);
    return made;
  };
  afterAll(() => {
    for (const made of fixtures) made.cleanup();
  });
  const skillgate = (args: string[], env: NodeJS.ProcessEnv) =>
    runProcess(TSX, [MAIN, ...args], { cwd: PACKAGE_ROOT, env });

  it("init --dut records the target; a missing DUT is a warning and is never printed as the DUT", async () => {
    const f = fixture();
    const target = join(f.dir, "target");
    mkdirSync(target);
    const given = await skillgate(["init", f.ws, "--config", f.configFile, "--dut", target], f.env);
    expect(given.code).toBe(0);
    expect(given.stdout).toContain(`\nDUT: ${target}\n`);
    const json = await skillgate(["init", f.ws, "--config", f.configFile, "--json"], f.env);
    const report = JSON.parse(json.stdout) as { runtimeConfig: { DUT: string }; dut_exists: boolean };
    expect(report.runtimeConfig.DUT).toBe(join(f.ws, "dut"));
    expect(report.dut_exists).toBe(false);

    const missing = join(f.dir, "no-such-target");
    const warned = await skillgate(["init", f.ws, "--config", f.configFile, "--dut", missing], f.env);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain("\nDUT: none (see the warning below)\n");
    expect(warned.stdout).not.toContain(`DUT: ${missing}`);
    expect(warned.stdout).toContain(
      `warning: DUT ${missing} does not exist: put the target there, or pass --dut PATH (the folder of the program under work)`,
    );
  });
});
