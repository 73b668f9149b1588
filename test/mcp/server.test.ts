// MCP plumbing without a process: tool listings from zod and the mapping of tool results to MCP results.
import { describe, expect, it } from "vitest";
import { toCallToolResult, toolListing } from "../../runtime/mcp/server.js";
import { findTool } from "../../runtime/tools/registry.js";

describe("toolListing", () => {
  it("gives RunSkillScript a JSON schema for [skill_id, script_filename, args] lists or a JSON string", () => {
    const listing = toolListing(findTool("RunSkillScript")!);
    expect(listing.inputSchema).toMatchObject({
      type: "object",
      required: ["commands"],
      additionalProperties: false,
      properties: {
        commands: {
          anyOf: [
            {
              type: "array",
              minItems: 1,
              items: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
            },
            { type: "string" },
          ],
        },
      },
    });
    expect(listing.inputSchema).not.toHaveProperty("$schema");
  });

  it("describes ReadTextFile's UCAgent parameters with defaults", () => {
    const listing = toolListing(findTool("ReadTextFile")!);
    const properties = listing.inputSchema.properties as Record<string, { default?: unknown; type?: string }>;
    expect(properties.path?.type).toBe("string");
    expect(properties.start?.default).toBe(1);
    expect(properties.count?.default).toBe(-1);
  });

  it("gives argument-less tools an empty object schema", () => {
    expect(toolListing(findTool("ListSkill")!).inputSchema).toMatchObject({ type: "object", properties: {} });
  });
});

describe("toCallToolResult", () => {
  it("carries text, structuredContent and isError, adding the error code", () => {
    expect(
      toCallToolResult({ text: "bad", structured: { a: 1 }, isError: true, code: "INVALID_ARGS" }),
    ).toEqual({
      content: [{ type: "text", text: "bad" }],
      structuredContent: { a: 1, code: "INVALID_ARGS" },
      isError: true,
    });
    expect(toCallToolResult({ text: "ok", structured: {}, isError: false })).toEqual({
      content: [{ type: "text", text: "ok" }],
      structuredContent: {},
      isError: false,
    });
  });
});
