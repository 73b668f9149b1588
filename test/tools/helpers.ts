// Test helpers for the tool/MCP/CLI suites: temp workspaces over the fixture pack with a small forced-stage workflow.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { stringify } from "yaml";
import { type OpenedSession, openSession } from "../../runtime/tools/session.js";
import { isolateHome, removeTree, tempRoot } from "../support/workspace.js";

export { removeTree };

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const FIXTURE_PACK = fileURLToPath(new URL("../fixtures/tools/pack", import.meta.url));
export const GATE_SKILL = "fixture/gate-skill";
export const GATE_SKILL_MD = ".ucagent/skills/fixture/gate-skill/SKILL.md";

export interface FixtureOptions {
  useSkill?: boolean;
  /** skill_list of the first stage (default [GATE_SKILL]). */
  stageSkills?: string[];
  general?: string[];
  max?: number;
  force?: boolean;
  /** Skill pack copied by init (default the fixture pack). */
  packPath?: string;
  sandboxLevel?: 1 | 2 | 3;
  /** write_dirs (default the schema's ["{OUT}"]). */
  writeDirs?: string[];
}

export interface Fixture {
  dir: string;
  ws: string;
  configFile: string;
  home: string;
  /** Env for child processes: SKILLGATE_HOME pointing into the temp dir. */
  env: NodeJS.ProcessEnv;
  open(extra?: { init?: boolean; argvFlags?: string[] }): Promise<OpenedSession>;
  cleanup(): void;
}

/** The fixture workflow: stage `report` (forced gate-skill, checker: {OUT}/report.md), then stage `summary` (no skills). */
export function fixtureConfig(options: FixtureOptions = {}): Record<string, unknown> {
  return {
    DUT: "dut",
    OUT: "out",
    skill: {
      use_skill: options.useSkill ?? true,
      pack_path: options.packPath ?? FIXTURE_PACK,
      general_skill_list: options.general ?? [],
      max_skill_list_count: options.max ?? 15,
    },
    exec: { sandbox_level: options.sandboxLevel ?? 2, timeout_seconds: 60 },
    ...(options.writeDirs ? { write_dirs: options.writeDirs } : {}),
    stage: [
      {
        name: "report",
        desc: "Produce the report with the gate skill.",
        task: ["Run make_report.py of the gate skill, then Check, SetSkillUsage and Complete."],
        output_files: ["{OUT}/report.md"],
        checker: [{ kind: "file_exists", args: { path: "{OUT}/report.md" } }],
        skill_list: options.stageSkills ?? [GATE_SKILL],
        force_use_skill: options.force ?? true,
      },
      {
        name: "summary",
        desc: "Write a summary.",
        task: ["Write {OUT}/summary.md."],
        checker: [{ kind: "file_exists", args: { path: "{OUT}/summary.md" } }],
      },
    ],
  };
}

/** Creates a temp dir holding home/, ws/ and config.yaml; sets SKILLGATE_HOME for this process. */
export function makeFixture(options: FixtureOptions = {}): Fixture {
  const root = tempRoot("skillgate-surface-");
  const dir = root.dir;
  const ws = root.path("ws");
  const configFile = root.path("config.yaml");
  writeFileSync(configFile, stringify(fixtureConfig(options)));
  // Left set after the test (as before): sessions opened later in the file read it from the process.
  const { home, env } = isolateHome(dir, { setProcess: true, create: false, extraEnv: { NO_COLOR: "1" } });
  return {
    dir,
    ws,
    configFile,
    home,
    env,
    open: (extra = {}) => openSession({ workspace: ws, configFile, env, ...extra }),
    cleanup: root.cleanup,
  };
}

/**
 * One fixture and its opened session per test, removed after each (registers the afterEach, so call it at the top
 * of the test file); `out` and `used` read the current test's session.
 */
export function sessionPerTest() {
  let current: { fixture: Fixture; session: OpenedSession } | undefined;
  afterEach(() => {
    current?.fixture.cleanup();
    current = undefined;
  });
  const session = (): OpenedSession => {
    if (!current) throw new Error("no session in this test: call setup() first");
    return current.session;
  };
  return {
    async setup(options: FixtureOptions = {}) {
      const fixture = makeFixture(options);
      current = { fixture, session: await fixture.open() };
      return current;
    },
    /** A file in the session's OUT folder. */
    out: (name: string) => join(session().runtime.OUT, name),
    /** The use evidence of the gate skill in the current stage. */
    used: async () => (await session().engine.current())?.evidence[GATE_SKILL]?.use,
  };
}

/** Makes a copied workspace file writable and replaces its content (simulates an agent editing by shell). */
export function tamper(file: string, content: string): void {
  chmodSync(file, 0o644);
  writeFileSync(file, content);
}
