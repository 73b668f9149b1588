// RunSkillScript with real scripts in the sandbox: validation before running, env/cwd/argv, stop at failure, use evidence.
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, GATE_SKILL, makeFixture, tamper } from "./helpers.js";

let fixture: Fixture;
let session: OpenedSession;

async function setup(options: Parameters<typeof makeFixture>[0] = {}) {
  fixture = makeFixture(options);
  session = await fixture.open();
}

afterEach(() => fixture.cleanup());

const out = (name: string) => join(session.runtime.OUT, name);
const used = async () => (await session.engine.current())?.evidence[GATE_SKILL]?.use;

describe("RunSkillScript runs real scripts", () => {
  it("passes argv split like shlex (no shell), cwd = workspace, DUT and OUT", async () => {
    await setup();
    const args = `one "two words" '$HOME' '|' '>' \\"quoted\\"`;
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "show_env.py", args]],
    });
    expect(result.isError).toBe(false);
    const records = result.structured.commands as {
      output: string;
      argv: string[];
      exit_code: number;
      status: string;
      sandboxed: boolean;
    }[];
    expect(records).toHaveLength(1);
    const seen = JSON.parse(records[0]!.output.trim().split("\n").pop()!) as Record<string, unknown>;
    expect(seen.argv).toEqual(["one", "two words", "$HOME", "|", ">", '"quoted"']);
    expect(seen.cwd).toBe(session.paths.root);
    expect(seen.DUT).toBe(join(session.paths.root, "dut"));
    expect(seen.OUT).toBe(join(session.paths.root, "out"));
    expect(records[0]!.argv.slice(-6)).toEqual(["one", "two words", "$HOME", "|", ">", '"quoted"']);
    expect(records[0]).toMatchObject({ exit_code: 0, status: "ok", sandboxed: true });
    expect(result.text.startsWith("Command 1 (")).toBe(true);
  });

  it("runs a .ts helper through the tsx mapping of scripts/script_runner.json", async () => {
    await setup();
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "helper.ts", "a b"]],
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("hello from helper.ts with 2 args");
  });

  it("accepts the command list as a JSON string and records use only after the whole call succeeded", async () => {
    await setup();
    expect(await used()).toBe(false);
    const failing = await callTool(session, "RunSkillScript", {
      commands: JSON.stringify([
        [GATE_SKILL, "write_marker.py", "first"],
        [GATE_SKILL, "fail.sh", "4"],
      ]),
    });
    expect(failing.isError).toBe(true);
    expect(await used()).toBe(false);
    const ok = await callTool(session, "RunSkillScript", {
      commands: JSON.stringify([[GATE_SKILL, "make_report.py", "--title 'Fixture Report'"]]),
    });
    expect(ok.isError).toBe(false);
    expect(readFileSync(out("report.md"), "utf8")).toContain("# Fixture Report");
    expect(ok.structured.used).toEqual([GATE_SKILL]);
    expect(await used()).toBe(true);
  });

  it("stops at the first failure; earlier side effects stay and later commands do not run", async () => {
    await setup();
    const result = await callTool(session, "RunSkillScript", {
      commands: [
        [GATE_SKILL, "write_marker.py", "a.marker"],
        [GATE_SKILL, "fail.sh", "4"],
        [GATE_SKILL, "write_marker.py", "c.marker"],
      ],
    });
    expect(result).toMatchObject({ isError: true, code: "SCRIPT_FAILED" });
    expect(result.text).toContain("Command 2 failed with exit code 4:\nfixture failure on purpose");
    expect(result.text).toContain(
      "Command 1 succeeded; its side effects stay (nothing is rolled back). Command 3 was not run.",
    );
    expect(existsSync(out("a.marker"))).toBe(true);
    expect(existsSync(out("failed.marker"))).toBe(true);
    expect(existsSync(out("c.marker"))).toBe(false);
    const records = result.structured.commands as { status: string; exit_code: number }[];
    expect(records.map((r) => [r.status, r.exit_code])).toEqual([
      ["ok", 0],
      ["nonzero_exit", 4],
    ]);
  });
});

describe("RunSkillScript validates every command before running any", () => {
  it("runs nothing when a later command is invalid", async () => {
    await setup();
    const result = await callTool(session, "RunSkillScript", {
      commands: [
        [GATE_SKILL, "write_marker.py", "first.marker"],
        [GATE_SKILL, "nope.py", ""],
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.text.startsWith("Command 2 invalid: ")).toBe(true);
    expect(result.text.endsWith("No command was run (every command is validated before any runs).")).toBe(
      true,
    );
    expect(existsSync(out("first.marker"))).toBe(false);
  });

  it("refuses a script edited after init", async () => {
    await setup();
    tamper(join(session.paths.skillsDir, "fixture/gate-skill/scripts/write_marker.py"), "print('forged')\n");
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "write_marker.py", "x"]],
    });
    expect(result).toMatchObject({ isError: true, code: "SCRIPT_MODIFIED" });
    expect(result.text.startsWith("Command 1 invalid: ")).toBe(true);
    expect(result.text).toContain("skillgate init");
    expect(existsSync(out("x"))).toBe(false);
  });

  it("answers every malformed call with an exact message", async () => {
    await setup();
    const hint =
      'Expected a non-empty list of [skill_id, script_filename, args], e.g. {"commands": [["review/static-bug-analysis", "list_bugs.ts", ""]]}.';
    const none = "\nNo command was run (every command is validated before any runs).";
    const cases: [unknown, string, string][] = [
      [
        {},
        "INVALID_ARGS",
        `Invalid arguments for RunSkillScript: 'commands' is required. Fix the call and try again, e.g. RunSkillScript {"commands": [["<skill_id>", "<script_filename>", "<args>"]]}.`,
      ],
      [
        { commands: [] },
        "INVALID_ARGS",
        `RunSkillScript: 'commands' must be a non-empty list, got []. ${hint}`,
      ],
      [
        { commands: "[[" },
        "INVALID_ARGS",
        `RunSkillScript: 'commands' is a string but not valid JSON (${jsonError("[[")}). ${hint}`,
      ],
      [
        { commands: [[GATE_SKILL, "show_env.py"]] },
        "INVALID_ARGS",
        `Command 1 invalid: expected [skill_id, script_filename, args] (three strings), got ["fixture/gate-skill","show_env.py"].${none}`,
      ],
      [
        { commands: [[1, 2, 3]] },
        "INVALID_ARGS",
        `Command 1 invalid: expected [skill_id, script_filename, args] (three strings), got [1,2,3].${none}`,
      ],
      [
        { commands: [["  ", "show_env.py", ""]] },
        "INVALID_ARGS",
        `Command 1 invalid: skill_id is empty; use a Skill ID shown by ListSkill.${none}`,
      ],
      [
        { commands: [[GATE_SKILL, "", ""]] },
        "INVALID_ARGS",
        `Command 1 invalid: script_filename is empty; use a file listed under the skill's Script Path.${none}`,
      ],
      [
        {
          commands: [
            [GATE_SKILL, "show_env.py", ""],
            ["nope/skill", "a.py", ""],
          ],
        },
        "SKILL_NOT_FOUND",
        `Command 2 invalid: skill 'nope/skill' not found in .ucagent/skills; call ListSkill and use a Skill ID it shows (available: fixture/gate-skill, fixture/text-skill, order/a, order/b, order/c, order/d, order/e).${none}`,
      ],
      [
        { commands: [[GATE_SKILL, "show_env.py", "'unbalanced"]] },
        "INVALID_ARGS",
        `Command 1 invalid: failed to parse args: No closing quotation${none}`,
      ],
      [
        { commands: [[GATE_SKILL, "script_runner.json", ""]] },
        "SCRIPT_NOT_FOUND",
        `Command 1 invalid: script 'script_runner.json' is not a script of skill 'fixture/gate-skill'; its scripts are: fail.sh, helper.ts, make_report.py, show_env.py, write_marker.py.${none}`,
      ],
      [
        // A script the skill does not have: the available ones are listed, no host path is shown.
        { commands: [[GATE_SKILL, "find_bugs.ts", ""]] },
        "SCRIPT_NOT_FOUND",
        `Command 1 invalid: script 'find_bugs.ts' is not a script of skill 'fixture/gate-skill'; its scripts are: fail.sh, helper.ts, make_report.py, show_env.py, write_marker.py.${none}`,
      ],
      [
        { commands: [["fixture/text-skill", "run.py", ""]] },
        "SCRIPT_NOT_FOUND",
        `Command 1 invalid: script 'run.py' is not a script of skill 'fixture/text-skill'; its scripts are: none (a text method: apply it by hand).${none}`,
      ],
      [
        { commands: [[GATE_SKILL, "show_env.py", ""]], extra: 1 },
        "INVALID_ARGS",
        `Invalid arguments for RunSkillScript: unknown field(s) 'extra'. Fix the call and try again, e.g. RunSkillScript {"commands": [["<skill_id>", "<script_filename>", "<args>"]]}.`,
      ],
    ];
    for (const [args, code, text] of cases) {
      const result = await callTool(session, "RunSkillScript", args);
      expect({ args, isError: result.isError, code: result.code, text: result.text }).toEqual({
        args,
        isError: true,
        code,
        text,
      });
    }
  });

  it.each([
    ["../SKILL.md", "SCRIPT_PATH_INVALID"],
    ["scripts/show_env.py", "SCRIPT_PATH_INVALID"],
    ["missing.py", "SCRIPT_NOT_FOUND"],
  ])("refuses script %s (exec's path check) with %s before running", async (script, code) => {
    await setup();
    const result = await callTool(session, "RunSkillScript", {
      commands: [
        [GATE_SKILL, "write_marker.py", "never.marker"],
        [GATE_SKILL, script, ""],
      ],
    });
    expect(result).toMatchObject({ isError: true, code });
    expect(result.text.startsWith("Command 2 invalid: ")).toBe(true);
    expect(existsSync(out("never.marker"))).toBe(false);
  });
});

describe("RunSkillScript with skills disabled or the skill folder missing", () => {
  it("answers 'skill support is disabled' and runs nothing", async () => {
    await setup({ useSkill: false });
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "write_marker.py", "x"]],
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("skill support is disabled");
    expect(existsSync(out("x"))).toBe(false);
  });

  it("says how to init when the skill folder is missing, and runs nothing", async () => {
    await setup();
    renameSync(session.paths.skillsDir, join(fixture.dir, "hidden"));
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "write_marker.py", "x"]],
    });
    expect(result).toMatchObject({ isError: true, code: "SKILL_ROOT_MISSING" });
    expect(result.text).toMatch(
      /^The workspace skill folder \.ucagent\/skills is missing\. To restore it, run `skillgate init \.`/,
    );
    expect(result.text).not.toContain(session.paths.root);
    expect(existsSync(out("x"))).toBe(false);
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}
