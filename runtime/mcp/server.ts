// Builds an MCP server over one Session: lists the offered tools with JSON schemas from zod, and calls them via the registry.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { callTool, toolsFor } from "../tools/registry.js";
import type { Session, ToolDefinition, ToolResult } from "../tools/types.js";

export const SERVER_NAME = "skillgate";
export const SERVER_VERSION = "0.1.0";

const INSTRUCTIONS =
  "skillgate serves a staged workflow. Call Status to see the current stage and its task. When skills are enabled, " +
  "work as ListSkill -> ReadTextFile(SKILL.md) -> apply the method (RunSkillScript when it calls for a script) -> " +
  "Check -> SetSkillUsage -> Complete. Every failed call says what to do next.";

export interface McpToolListing {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

/** The MCP tools/list entry of a tool: JSON Schema (input side) of its zod schema. */
export function toolListing(tool: ToolDefinition): McpToolListing {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return { name: tool.name, description: tool.description, inputSchema: { ...schema, type: "object" } };
}

/** A tool result as MCP content: text for the model, structuredContent for programs, isError for failed work. */
export function toCallToolResult(result: ToolResult): CallToolResult {
  const structured =
    result.code && !("code" in result.structured)
      ? { ...result.structured, code: result.code }
      : result.structured;
  return {
    content: [{ type: "text", text: result.text }],
    structuredContent: structured,
    isError: result.isError,
  };
}

export interface CreateMcpServerOptions {
  /** Logs go here (never stdout, which belongs to the protocol). */
  log?: (message: string) => void;
  /** Tool calls still running are added here, so a closing transport can let them answer first. */
  inFlight?: Set<Promise<unknown>>;
}

/** One MCP server instance per client connection; all of them may share the Session (state writes are locked). */
export function createMcpServer(session: Session, options: CreateMcpServerOptions = {}): McpServer {
  const mcp = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  // The low-level handlers keep argument validation ours: bad calls become readable isError results.
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolsFor(session.skillsEnabled).map(toolListing),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const started = Date.now();
    const running = callTool(session, request.params.name, request.params.arguments ?? {});
    options.inFlight?.add(running);
    const result = await running.finally(() => options.inFlight?.delete(running));
    options.log?.(
      `${request.params.name}: ${result.isError ? `error ${result.code ?? ""}` : "ok"} (${Date.now() - started} ms)`,
    );
    return toCallToolResult(result);
  });
  return mcp;
}
