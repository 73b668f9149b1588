// `skillgate status` as a real process: the stage table (numbered from 0 like the Status tool), --json, a refused ledger.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesForFile, flags, skillgate } from "../helpers.js";

const fixture = fixturesForFile();

describe("skillgate status", () => {
  it("status and the Status tool number stages the same way (from 0, as UCAgent)", async () => {
    const f = fixture();
    const status = await skillgate(["status", ...flags(f)], f.env);
    const tool = await skillgate(["call", "Status", ...flags(f)], f.env);
    expect(status.stdout).toMatch(/\n0 {3}report {26}current/);
    expect(status.stdout).toMatch(/\n1 {3}summary {25}pending/);
    expect(tool.stdout).toContain("  [>] 0. report (current)\n  [ ] 1. summary (pending)");
  });

  it("--json gives the stages, the current stage and the skill evidence of the Status tool", async () => {
    const f = fixture();
    const outcome = await skillgate(["status", ...flags(f), "--json"], f.env);
    expect(outcome.code).toBe(0);
    const json = JSON.parse(outcome.stdout);
    expect(json).toMatchObject({
      ok: true,
      workspace: f.ws,
      skills_enabled: true,
      current_stage: "report",
      skill_notes: [],
    });
    expect(json.stages.map((stage: { name: string; state: string }) => [stage.name, stage.state])).toEqual([
      ["report", "current"],
      ["summary", "pending"],
    ]);
    expect(json.status.current_stage_name).toBe("report");
  });

  it("with skills disabled it still shows the stages and says skills are off", async () => {
    const f = fixture({ useSkill: false });
    const outcome = await skillgate(["status", ...flags(f), "--json"], f.env);
    expect(outcome.code).toBe(0);
    const json = JSON.parse(outcome.stdout);
    expect(json).toMatchObject({ ok: true, skills_enabled: false, current_stage: "report" });
  });

  it("a ledger signed under another SKILLGATE_HOME is shown as refused (exit 1), not hidden behind an error", async () => {
    const f = fixture();
    expect((await skillgate(["status", ...flags(f)], f.env)).code).toBe(0);
    const other = { ...f.env, SKILLGATE_HOME: join(f.dir, "other-home") };
    const text = await skillgate(["status", ...flags(f)], other);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe("");
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe(`Workspace ${f.ws}`);
    expect(lines[1]).toMatch(/^Evidence ledger: REFUSED \[LEDGER_KEY_MISMATCH\]: /);
    expect(text.stdout).toContain(`Set SKILLGATE_HOME to the home that created it (${f.home}) and retry.`);
    const json = await skillgate(["status", ...flags(f), "--json"], other);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      workspace: f.ws,
      ledger: { health: "refused", problem: { code: "LEDGER_KEY_MISMATCH" } },
    });
  });

  it("without --workspace it is a usage error (exit 2)", async () => {
    const f = fixture();
    const outcome = await skillgate(["status"], f.env);
    expect(outcome).toEqual({
      code: 2,
      stdout: "",
      stderr: "error [USAGE]: missing --workspace <dir>: name the workspace folder, e.g. --workspace ./ws\n",
    });
  });
});
