// Builds the MCP server over one Session (every transport uses this): tools, the Skills Extension, the stage prompt.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { packageVersion, type ToolResult } from "../contracts/index.js";
import type { Session, ToolDefinition } from "../tools/index.js";
import { ALL_TOOLS, callTool, fileToolsEnabled, offeredTools, unknownToolMessage } from "../tools/index.js";
import { registerPrompts } from "./prompts.js";
import { invalidParams } from "./rpc-error.js";
import { registerSkillsExtension, SKILLS_EXTENSION } from "./skills-extension.js";
import { toolMeta } from "./tool-meta.js";

export const SERVER_NAME = "skillgate";
export const SERVER_VERSION = packageVersion();

/** The server instructions: the workflow in two sentences (the second names the file tools only when offered). */
export function instructionsFor(fileTools: boolean): string {
  return (
    "skillgate serves a staged workflow: call Status (or the current_stage prompt) to see the current stage and its " +
    "task, then work ListSkill -> read each stage skill's SKILL.md (ReadTextFile, or resources/read of its skill:// " +
    "URI) -> apply the method (RunSkillScript when it calls for a script) -> Check -> SetSkillUsage -> Complete. " +
    (fileTools
      ? "Write stage outputs with the file tools (EditTextFile, ReplaceStringInFile, ...) inside the writable folders; "
      : "Write stage outputs with your own file tools inside the output folder; ") +
    "every failed call says what to do next."
  );
}

export type McpToolListing = Tool;

/** The MCP tools/list entry of a tool: JSON Schema of its zod input, title, annotations and output schema. */
export function toolListing(tool: ToolDefinition): McpToolListing {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema, { io: "input" }) as Record<
    string,
    unknown
  >;
  const meta = toolMeta(tool.name);
  return {
    name: tool.name,
    title: meta.title,
    description: tool.description,
    inputSchema: { ...schema, type: "object" },
    outputSchema: meta.outputSchema,
    annotations: { title: meta.title, ...meta.annotations },
  };
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
  /** Requests still running are added here, so a closing transport can let them answer first. */
  inFlight?: Set<Promise<unknown>>;
  /** Page sizes of skills/list and resources/list (defaults 50 and 200). */
  pageSizes?: { skills?: number; resources?: number };
}

/** Why a known tool is not offered by this server (it is then a -32602, like an unknown one). */
function notOfferedReason(session: Session, tool: ToolDefinition): string {
  if (tool.skillTool && !session.skillsEnabled) {
    return "skill support is disabled (skill.use_skill: false or --no-use-skill)";
  }
  if (tool.fileTool && !fileToolsEnabled(session)) {
    return "the file tools are left out (serve --no-file-tools or file_tools: false); use the host's own file tools";
  }
  return "it is not offered by this server";
}

/**
 * Every request handler registered on `server` from now on adds its running promise to `inFlight`, so a transport
 * that closes (stdin ends right after the last request) can answer every request still running, not only tool calls
 * (a resources/read records evidence too).
 */
function trackRequests(server: Server, inFlight: Set<Promise<unknown>> | undefined): void {
  if (!inFlight) return;
  const register = server.setRequestHandler.bind(server) as (
    schema: unknown,
    handler: (request: unknown, extra: unknown) => unknown,
  ) => void;
  (server as unknown as { setRequestHandler: typeof register }).setRequestHandler = (schema, handler) =>
    register(schema, (request, extra) => {
      const running = Promise.resolve().then(() => handler(request, extra));
      inFlight.add(running);
      return running.finally(() => inFlight.delete(running));
    });
}

/** Servers sharing a Session, so a stage change made through one tells every client its resources changed. */
const peers = new WeakMap<Session, Set<Server>>();

function notifyResourcesChanged(session: Session): void {
  for (const server of peers.get(session) ?? []) {
    server.sendResourceListChanged().catch(() => {
      // A client that went away misses the notification; nothing to do.
    });
  }
}

/** One MCP server instance per client connection; all of them may share the Session (state writes are locked). */
export function createMcpServer(session: Session, options: CreateMcpServerOptions = {}): Server {
  // The low-level Server (not McpServer): McpServer would advertise listChanged for tools, resources and prompts.
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: {
        // The tool set is fixed for the life of the process, so tools.listChanged is not advertised.
        tools: {},
        // Sent when a Complete through this process moves the stage (the served skills change with it).
        resources: { listChanged: true },
        prompts: {},
        extensions: { [SKILLS_EXTENSION]: {} },
      },
      instructions: instructionsFor(fileToolsEnabled(session)),
    },
  );
  trackRequests(server, options.inFlight);
  const offered = () => offeredTools(session);
  // The low-level handlers keep argument validation ours: bad arguments become readable isError results.
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: offered().map(toolListing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const tools = offered();
    if (!tools.some((tool) => tool.name === name)) {
      const known = ALL_TOOLS.find((tool) => tool.name === name);
      const available = tools.map((tool) => tool.name);
      throw invalidParams(
        known
          ? `Tool '${name}' is not available: ${notOfferedReason(session, known)}. Available tools: ${available.join(", ")}.`
          : unknownToolMessage(name, available),
      );
    }
    const started = Date.now();
    const result = await callTool(session, name, request.params.arguments ?? {});
    options.log?.(
      `${name}: ${result.isError ? `error ${result.code ?? ""}` : "ok"} (${Date.now() - started} ms)`,
    );
    if (name === "Complete" && !result.isError) notifyResourcesChanged(session);
    return toCallToolResult(result);
  });
  registerSkillsExtension(server, session, options.pageSizes);
  registerPrompts(server, session);

  const group = peers.get(session) ?? new Set<Server>();
  peers.set(session, group);
  group.add(server);
  const previous = server.onclose;
  server.onclose = () => {
    group.delete(server);
    previous?.();
  };
  return server;
}
