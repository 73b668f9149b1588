// A workspace folder whose name starts with two dots ("..out") is inside the workspace: Check, the output fingerprint
// and the current_stage prompt show it workspace-relative, through `skillgate call` and the real MCP SDK client.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { connectStdio, MAIN, TSX } from "../mcp/helpers.js";
import { type ProcessOutcome, runProcess } from "../support/process.js";
import {
  type Fixture,
  fixtureConfig,
  GATE_SKILL,
  GATE_SKILL_MD,
  makeFixture,
  REPO_ROOT,
} from "../tools/helpers.js";

let fixture: Fixture;
const skillgate = (args: string[]): Promise<ProcessOutcome> =>
  runProcess(TSX, [MAIN, ...args], { cwd: REPO_ROOT, env: fixture.env });
const ws = () => ["--workspace", fixture.ws, "--config", fixture.configFile];

beforeAll(() => {
  fixture = makeFixture();
  writeFileSync(fixture.configFile, stringify({ ...fixtureConfig(), OUT: "..out" }));
});
afterAll(() => fixture.cleanup());

describe("an output folder named '..out'", () => {
  it("Check and the changed-output refusal name it workspace-relative (skillgate call)", async () => {
    const missing = await skillgate(["call", "Check", ...ws(), "--json"]);
    expect(missing.code).toBe(1);
    // The structured result is not rewritten for the agent: it shows what the checker itself produced.
    expect(JSON.parse(missing.stdout).structured.checkers).toEqual([
      {
        kind: "file_exists",
        ok: false,
        message: "file_exists: ..out/report.md does not exist; create it as the stage task describes.",
      },
    ]);

    mkdirSync(join(fixture.ws, "..out"), { recursive: true });
    writeFileSync(join(fixture.ws, "..out", "report.md"), "# Report\n");
    expect((await skillgate(["call", "ListSkill", ...ws()])).code).toBe(0);
    expect(
      (await skillgate(["call", "ReadTextFile", JSON.stringify({ path: GATE_SKILL_MD }), ...ws()])).code,
    ).toBe(0);
    const passed = await skillgate(["call", "Check", ...ws()]);
    expect(passed.code, passed.stdout).toBe(0);

    writeFileSync(join(fixture.ws, "..out", "report.md"), "# Report\n\nEdited after Check.\n");
    const usage = await skillgate([
      "call",
      "SetSkillUsage",
      JSON.stringify({ skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } }),
      ...ws(),
      "--json",
    ]);
    expect(usage.code).toBe(1);
    expect(JSON.parse(usage.stdout).structured.problems[1]).toEqual({
      text: "the current evidence has not passed `Check` since it last changed (output files changed after the last `Check`: ..out/report.md).",
      next: "Check",
    });
  });

  it("the current_stage prompt lists it workspace-relative (MCP SDK client)", async () => {
    const connection = await connectStdio(
      ["--workspace", fixture.ws, "--config", fixture.configFile],
      fixture.env,
    );
    try {
      const prompt = await connection.client.getPrompt({ name: "current_stage" });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      expect(text.split("\n")).toContain("Output files (workspace-relative): ..out/report.md");
    } finally {
      await connection.close();
    }
  });
});
