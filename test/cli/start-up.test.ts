// Start-up through real processes: a broken workflow stops init/serve/call, serve restores the skill copy, flags.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { connectStdio, MAIN, TSX } from "../mcp/helpers.js";
import { type ProcessOutcome, runProcess } from "../support/process.js";
import { type Fixture, type FixtureOptions, makeFixture, REPO_ROOT, removeTree } from "../tools/helpers.js";

const run = promisify(execFile);

function skillgate(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Promise<ProcessOutcome> {
  return runProcess(TSX, [MAIN, ...args], { cwd, env });
}

/** `serve` over stdio with stdin left open: a broken workflow must make it exit by itself. */
function serveUntilExit(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [MAIN, "serve", ...args], { cwd: REPO_ROOT, env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not exit on a broken workflow:\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

const fixtures: Fixture[] = [];
function fixture(options: FixtureOptions = {}): Fixture {
  const made = makeFixture(options);
  fixtures.push(made);
  return made;
}
afterAll(() => {
  for (const made of fixtures) made.cleanup();
});

const flags = (f: Fixture) => ["--workspace", f.ws, "--config", f.configFile];

describe("a broken workflow stops init, serve and call at once with UCAgent's message", () => {
  const FIX =
    "Fix the stage config (skill_list entries are paths below the workspace skill folder) and start again.";
  const rows = [
    {
      what: "a missing skill",
      skills: ["fixture/missing"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill 'fixture/missing' is not found in workspace. (stage[0].skill_list[0]: no skill 'fixture/missing' in .ucagent/skills; fix the id (a path below the skill root) or remove it.)",
    },
    {
      what: "a skill outside the root",
      skills: ["../outside"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill '../outside' is outside the workspace skill directory. (stage[0].skill_list[0]: absolute paths and '..' are not allowed; use the path below .ucagent/skills, e.g. 'review/static-bug-analysis'.)",
    },
    {
      what: "a skill whose SKILL.md does not parse",
      skills: ["ext/bad-skill"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill 'ext/bad-skill' is not found in workspace. (stage[0].skill_list[0]: .ucagent/skills/ext/bad-skill/SKILL.md does not load: ",
    },
    {
      what: "a skill_list that is not a list",
      skills: "fixture/gate-skill" as unknown as string[],
      code: "CONFIG_INVALID",
      sentence: "stage[0].skill_list: Stage 'report' skill_list must be a list. (expected a list, got",
    },
  ];

  it.each(rows)("$what: init, call and serve exit 1 naming it", async ({ skills, code, sentence }) => {
    const f = fixture({ stageSkills: skills });
    const bad = join(f.dir, "bad-skill");
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, "SKILL.md"), "no frontmatter here\n");
    const extra = ["--extra-skill-path", bad];
    const outcomes = [
      await skillgate(["init", f.ws, "--config", f.configFile, ...extra], f.env),
      await skillgate(["call", "Status", ...flags(f), ...extra], f.env),
      await serveUntilExit([...flags(f), ...extra], f.env),
    ];
    for (const outcome of outcomes) {
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`error [${code}]: `);
      expect(outcome.stderr).toContain(sentence);
      if (code === "WORKFLOW_INVALID") {
        expect(outcome.stderr).toContain(`the workflow of workspace ${f.ws} cannot start (1 error):\n`);
        expect(outcome.stderr).toContain(FIX);
      }
      expect(outcome.stdout).toBe("");
    }
  });
});

describe("skills missing with skills enabled", () => {
  it("call answers 'The workspace skill folder .ucagent/skills is missing' with a fix that works: init in the workspace folder", async () => {
    const f = fixture();
    expect((await skillgate(["call", "Status", ...flags(f)], f.env)).code).toBe(0);
    removeTree(join(f.ws, ".ucagent", "skills"));
    const missing = await skillgate(["call", "ListSkill", ...flags(f)], f.env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe(
      "ListSkill failed [SKILL_ROOT_MISSING]:\nThe workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path flags this session was started with (the running tools pick the copy up at once, no restart needed), or restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill.\n",
    );
    expect(missing.stdout).not.toContain(f.dir);
    // Exactly what the text says, run where it says.
    expect((await skillgate(["init", ".", "--config", f.configFile], f.env, f.ws)).code).toBe(0);
    const listed = await skillgate(["call", "ListSkill", ...flags(f)], f.env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^Found 1 available skills:\n1\. Skill Name: gate-skill\n/);
  });

  it("a running server picks the restored copy up; a restarted server restores it at start", async () => {
    const f = fixture();
    const first = await connectStdio(flags(f), f.env);
    try {
      removeTree(join(f.ws, ".ucagent", "skills"));
      const gone = await first.client.callTool({ name: "ListSkill", arguments: {} });
      expect(gone.isError).toBe(true);
      expect((gone.content as { text: string }[])[0]?.text).toMatch(
        /^The workspace skill folder \.ucagent\/skills is missing\. To restore it, run `skillgate init \.` in the workspace folder/,
      );
      expect((await skillgate(["init", ".", "--config", f.configFile], f.env, f.ws)).code).toBe(0);
      const back = await first.client.callTool({ name: "ListSkill", arguments: {} });
      expect(back.isError).toBeFalsy();
    } finally {
      await first.close();
    }
    removeTree(join(f.ws, ".ucagent", "skills"));
    const second = await connectStdio(flags(f), f.env);
    try {
      expect(existsSync(join(f.ws, ".ucagent", "skills", "fixture", "gate-skill", "SKILL.md"))).toBe(true);
      const listed = await second.client.callTool({ name: "ListSkill", arguments: {} });
      expect(listed.isError).toBeFalsy();
      expect((listed.content as { text: string }[])[0]?.text).toMatch(/^Found 1 available skills:/);
    } finally {
      await second.close();
    }
  });
});

describe("first-run flags", () => {
  it("serve prints connect commands with every flag it was started with, paths absolute", async () => {
    const f = fixture();
    const conn = await connectStdio(["--workspace", f.ws, "--config", f.configFile, "--no-use-skill"], f.env);
    try {
      await conn.client.listTools();
      expect(conn.stderr()).toContain(
        `  Claude Code:    claude mcp add skillgate -- npx tsx ${MAIN} serve --workspace ${f.ws} --config ${f.configFile} --no-use-skill\n`,
      );
    } finally {
      await conn.close();
    }
  });

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

  it("serve --dut records the target and warns at start when it does not exist", async () => {
    const f = fixture();
    const missing = join(f.dir, "absent-target");
    const conn = await connectStdio([...flags(f), "--dut", missing], f.env);
    try {
      const status = await conn.client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [["fixture/gate-skill", "show_env.py", ""]] },
      });
      expect((status.structuredContent as { commands: { output: string }[] }).commands[0]?.output).toContain(
        `"DUT": "${missing}"`,
      );
      expect(conn.stderr()).toContain(`skillgate: warning: DUT ${missing} does not exist:`);
      expect(conn.stderr()).toContain(`--dut ${missing}`);
    } finally {
      await conn.close();
    }
  });

  it("serve without bubblewrap says so at start, and every tool but script runs works", async () => {
    const f = fixture();
    const env = { ...f.env, SKILLGATE_BWRAP: join(f.dir, "no-bwrap") };
    const conn = await connectStdio(flags(f), env);
    try {
      expect(conn.stderr()).toContain(
        `skillgate: warning: SKILLGATE_BWRAP=${join(f.dir, "no-bwrap")} does not exist: RunSkillScript will refuse to run scripts until it names the bubblewrap binary`,
      );
      const listed = await conn.client.callTool({ name: "ListSkill", arguments: {} });
      expect(listed.isError).toBeFalsy();
      const ran = await conn.client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [["fixture/gate-skill", "show_env.py", ""]] },
      });
      expect(ran.isError).toBe(true);
      // The stable code is in the structured result; the text says what is missing and the fix.
      expect((ran.structuredContent as { code?: string }).code).toBe("SANDBOX_UNAVAILABLE");
      expect((ran.content as { text: string }[])[0]?.text).toContain(
        `Command 1 failed (sandbox_unavailable): cannot run script 'show_env.py' at sandbox level 2: bubblewrap not found at ${join(f.dir, "no-bwrap")}; fix: `,
      );
    } finally {
      await conn.close();
    }
  });

  it("--version prints the package version", async () => {
    const outcome = await skillgate(["--version"], process.env);
    expect(outcome).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });

  it("status and the Status tool number stages the same way (from 0, as UCAgent)", async () => {
    const f = fixture();
    const status = await skillgate(["status", ...flags(f)], f.env);
    const tool = await skillgate(["call", "Status", ...flags(f)], f.env);
    expect(status.stdout).toMatch(/\n0 {3}report {26}current/);
    expect(status.stdout).toMatch(/\n1 {3}summary {25}pending/);
    expect(tool.stdout).toContain("  [>] 0. report (current)\n  [ ] 1. summary (pending)");
  });

  it("catalog piped into head exits cleanly (no EPIPE crash)", async () => {
    const f = fixture();
    const root = join(f.dir, "many");
    for (let i = 0; i < 400; i++) {
      const dir = join(root, `skill-${String(i).padStart(3, "0")}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "SKILL.md"), `---\nname: skill-${i}\ndescription: ${"x".repeat(900)}\n---\n`);
    }
    const { stdout, stderr } = await run(
      "bash",
      ["-c", `"${TSX}" "${MAIN}" catalog "${root}" | head -n 1; echo "status=\${PIPESTATUS[0]}"`],
      { cwd: REPO_ROOT, env: f.env, maxBuffer: 1 << 24 },
    );
    expect(stdout).toBe(`400 skill(s) in ${root}\nstatus=0\n`);
    expect(stderr).toBe("");
  });
});
