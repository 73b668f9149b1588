// RunSkillScript with real scripts in the sandbox: env/cwd/argv, stop at failure, use evidence, skills off or missing.
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { GATE_SKILL, sessionPerTest } from "./helpers.js";

const { setup, out, used } = sessionPerTest();

describe("RunSkillScript runs real scripts", () => {
  it("passes argv split like shlex (no shell), cwd = workspace, DUT and OUT", async () => {
    const { session } = await setup();
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
    const { session } = await setup();
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "helper.ts", "a b"]],
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("hello from helper.ts with 2 args");
  });

  it("accepts the command list as a JSON string and records use only after the whole call succeeded", async () => {
    const { session } = await setup();
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
    const { session } = await setup();
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

describe("RunSkillScript with skills disabled or the skill folder missing", () => {
  it("answers 'skill support is disabled' and runs nothing", async () => {
    const { session } = await setup({ useSkill: false });
    const result = await callTool(session, "RunSkillScript", {
      commands: [[GATE_SKILL, "write_marker.py", "x"]],
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain("skill support is disabled");
    expect(existsSync(out("x"))).toBe(false);
  });

  it("says how to init when the skill folder is missing, and runs nothing", async () => {
    const { session, fixture } = await setup();
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
