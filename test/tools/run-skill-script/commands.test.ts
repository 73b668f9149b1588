// RunSkillScript's command validation (run-skill-script/commands.ts): every command checked before any runs, exact messages.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../../runtime/tools/registry.js";
import { GATE_SKILL, sessionPerTest, tamper } from "../helpers.js";

const { setup, out } = sessionPerTest();

describe("RunSkillScript validates every command before running any", () => {
  it("runs nothing when a later command is invalid", async () => {
    const { session } = await setup();
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
    const { session } = await setup();
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
    const { session } = await setup();
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
    const { session } = await setup();
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

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}
