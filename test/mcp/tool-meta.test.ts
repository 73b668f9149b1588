// MCP tool metadata through the real SDK client: titles, annotations, and outputSchemas every result validates against.
import { describe, expect, it } from "vitest";
import { TOOL_META, toolMeta } from "../../runtime/mcp/tool-meta.js";
import { ALL_TOOLS } from "../../runtime/tools/registry.js";
import { GATE_SKILL, GATE_SKILL_MD, makeFixture } from "../tools/helpers.js";
import { servePerTest, ValidatingClient } from "./helpers.js";

const served = servePerTest();

const READ_ONLY = [
  "ListSkill",
  "ReadTextFile",
  "Status",
  "PathList",
  "FindFiles",
  "SearchText",
  "GetFileInfo",
];

describe("TOOL_META", () => {
  it("every tool in the registry has MCP metadata", () => {
    expect(ALL_TOOLS.map((tool) => tool.name).filter((name) => !TOOL_META[name])).toEqual([]);
  });

  it("toolMeta names the table to extend for a tool without metadata", () => {
    expect(toolMeta("Check")).toBe(TOOL_META.Check);
    expect(() => toolMeta("NoSuchTool")).toThrow(
      "no MCP metadata for tool NoSuchTool: add it to TOOL_META in runtime/mcp/tool-meta.ts",
    );
  });

  it("tools have a title, annotations and an outputSchema their structuredContent validates against", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture);
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
});
