// MCP conventions through the real SDK client: serverInfo, capabilities, instructions, tool metadata, the stage prompt.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_META } from "../../runtime/mcp/tool-meta.js";
import { ALL_TOOLS } from "../../runtime/tools/registry.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { connectStdio, type StdioConnection, ValidatingClient } from "./helpers.js";

let fixture: Fixture | undefined;
let connection: StdioConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

const READ_ONLY = [
  "ListSkill",
  "ReadTextFile",
  "Status",
  "PathList",
  "FindFiles",
  "SearchText",
  "GetFileInfo",
];

describe("MCP conventions", () => {
  it("every tool in the registry has MCP metadata", () => {
    expect(ALL_TOOLS.map((tool) => tool.name).filter((name) => !TOOL_META[name])).toEqual([]);
  });

  it("serverInfo comes from package.json; capabilities are honest; instructions give the workflow", async () => {
    fixture = makeFixture();
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const { client } = connection;
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(client.getServerVersion()).toEqual({ name: "skillgate", version: pkg.version });
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: { listChanged: true },
      prompts: {},
      extensions: { "io.modelcontextprotocol/skills": {} },
    });
    expect(client.getInstructions()).toContain(
      "ListSkill -> read each stage skill's SKILL.md (ReadTextFile, or resources/read of its skill:// URI) -> apply " +
        "the method (RunSkillScript when it calls for a script) -> Check -> SetSkillUsage -> Complete.",
    );
    expect(client.getInstructions()).toContain("Write stage outputs with the file tools (EditTextFile,");
  });

  it("tools have a title, annotations and an outputSchema their structuredContent validates against", async () => {
    fixture = makeFixture();
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const { tools } = await connection.client.listTools();
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]/);
      expect(tool.annotations?.title).toBe(tool.title);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_ONLY.includes(tool.name));
      expect(tool.outputSchema?.type).toBe("object");
    }
    const client = new ValidatingClient(connection.client);
    // Successes and failures of every tool, all validated against their outputSchema.
    await client.call("Complete");
    await client.call("SetSkillUsage", { skill_usage: {} });
    await client.call("ReadTextFile", { path: "../outside" });
    await client.call("ReadTextFile", { path: 7 });
    await client.call("Check");
    await client.ok("ListSkill");
    await client.ok("ReadTextFile", { path: GATE_SKILL_MD });
    await client.call("RunSkillScript", { commands: [[GATE_SKILL, "fail.sh", "3"]] });
    await client.ok("RunSkillScript", { commands: [[GATE_SKILL, "make_report.py", "--title T"]] });
    await client.ok("Check");
    await client.ok("SetSkillUsage", {
      skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } },
    });
    await client.ok("Complete");
    await client.ok("Status");
    await client.ok("SetSkillUsage", { skill_usage: {} }).catch(() => undefined);
    expect(client.validated).toBeGreaterThanOrEqual(13);
  });

  it("exposes the current stage's task as a prompt that follows the stage", async () => {
    fixture = makeFixture();
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const { client } = connection;
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "current_stage",
        title: "Start the current stage",
        description: "The current workflow stage: its task, outputs, skills and the tools to call, in order.",
      },
    ]);
    const first = await client.getPrompt({ name: "current_stage" });
    expect(first.description).toBe("Stage 0: report");
    expect(first.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: [
            "You are working on stage 0 'report' of a skillgate workflow.",
            "Stage description: Produce the report with the gate skill.",
            "Task:",
            "- Run make_report.py of the gate skill, then Check, SetSkillUsage and Complete.",
            "Output files (workspace-relative): out/report.md",
            `Stage skills: ${GATE_SKILL}. Call ListSkill, read each skill's SKILL.md (ReadTextFile, or resources/read of ` +
              "its skill:// URI), apply the method (RunSkillScript when it calls for a script), then Check, " +
              "SetSkillUsage and Complete.",
            "Every failed call says what to do next; `Status` shows where you are.",
          ].join("\n"),
        },
      },
    ]);
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown prompt \"nope\": this server has one prompt, 'current_stage'.",
    });
  });
});
