// The agent tools (workflow tools and UCAgent file tools), which of them are offered (skill tools hidden when skills are off) and one safe way to call them.
import type { z } from "zod";
import { closestName, type ToolName, type ToolResult } from "../contracts/index.js";
import { isSkillgateError } from "../errors.js";
import { ALL_TOOLS } from "./all-tools.js";
import { formatInputError } from "./input-errors.js";
import { errorResult, skillsDisabledResult, withWarnings } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export { ALL_TOOLS };

/** A minimal valid call of each tool, quoted in "how to fix" messages. */
export const TOOL_EXAMPLES: Record<ToolName, string> = {
  ListSkill: "{}",
  ReadTextFile: '{"path": ".ucagent/skills/<group>/<skill>/SKILL.md", "start": 1, "count": -1}',
  RunSkillScript: '{"commands": [["<skill_id>", "<script_filename>", "<args>"]]}',
  SetSkillUsage: '{"skill_usage": {"<skill_id>": {"list": true, "read": true, "use": true}}}',
  Check: "{}",
  Complete: "{}",
  Status: "{}",
  EditTextFile: '{"path": "out/report.md", "content": "# Report\\n"}',
  ReplaceStringInFile: '{"path": "out/report.md", "old_string": "old text", "new_string": "new text"}',
  DeleteTextLines: '{"path": "out/report.md", "line_blocks": [3, [10, 12]]}',
  PathList: '{"path": ".", "depth": 1}',
  FindFiles: '{"pattern": "*.md", "directory": "out"}',
  SearchText: '{"pattern": "TODO", "directory": "dut"}',
  GetFileInfo: '{"path": "out/report.md"}',
  CreateDirectory: '{"path": "out/scripts"}',
  CopyFile: '{"source_path": "dut/a.txt", "dest_path": "out/a.txt"}',
  MoveFile: '{"source_path": "out/draft.md", "dest_path": "out/report.md"}',
  DeleteFile: '{"path": "out/draft.md"}',
};

/**
 * Tools offered to an agent. With skills disabled, as in UCAgent, ListSkill, RunSkillScript and SetSkillUsage are
 * not offered; ReadTextFile stays (it is UCAgent's general file reader, needed for guide_doc/ and the target).
 */
export function toolsFor(skillsEnabled: boolean, options: { fileTools?: boolean } = {}): ToolDefinition[] {
  const fileTools = options.fileTools ?? true;
  return ALL_TOOLS.filter((tool) => (skillsEnabled || !tool.skillTool) && (fileTools || !tool.fileTool));
}

/** Whether this session offers the file tools: `serve --no-file-tools` (session) over `file_tools` (config). */
export function fileToolsEnabled(session: Session): boolean {
  return session.fileTools ?? session.config.file_tools;
}

/** The tools a session offers (MCP tools/list). */
export function offeredTools(session: Session): ToolDefinition[] {
  return toolsFor(session.skillsEnabled, { fileTools: fileToolsEnabled(session) });
}

export function findTool(name: string): ToolDefinition | undefined {
  return ALL_TOOLS.find((tool) => tool.name === name);
}

/**
 * Calls a tool by name with untrusted arguments. Unknown tools, bad arguments and failed work come back as
 * isError results; a skill tool called while skills are disabled answers "skill support is disabled" (not an
 * error). Only bugs throw.
 */
/** "Unknown tool 'x'. Did you mean 'X'? Available tools: …." (the CLI, the library and MCP alike). */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  const near = closestName(
    name,
    ALL_TOOLS.map((tool) => tool.name),
  );
  return `Unknown tool '${name}'.${near ? ` Did you mean '${near}'?` : ""} Available tools: ${available.join(", ")}.`;
}

export async function callTool(session: Session, name: string, args: unknown): Promise<ToolResult> {
  const { result, handled } = await dispatch(session, name, args);
  // An engine started on use: its start error is this call's error, as when it started with the session.
  await session.engineStarted?.();
  return handled ? withoutWorkspacePath(session, withPendingWarnings(session, result)) : result;
}

/** The tool's answer; `handled`: its handler ran (its result gets the engine's warnings). */
async function dispatch(
  session: Session,
  name: string,
  args: unknown,
): Promise<{ result: ToolResult; handled: boolean }> {
  const tool = findTool(name);
  if (!tool) {
    const offered = offeredTools(session).map((candidate) => candidate.name);
    return {
      result: errorResult("USAGE", unknownToolMessage(name, offered), { tool: name, available: offered }),
      handled: false,
    };
  }
  if (tool.skillTool && !session.skillsEnabled)
    return { result: skillsDisabledResult(tool.name), handled: false };
  if (tool.fileTool && !fileToolsEnabled(session)) {
    return {
      result: errorResult(
        "TOOL_DISABLED",
        `${tool.name} is turned off here (file_tools: false or serve --no-file-tools): the host brings its own file ` +
          "tools, so use those.",
        { tool: tool.name },
      ),
      handled: false,
    };
  }
  const input = args === undefined || args === null ? {} : args;
  const parsed = (tool.inputSchema as z.ZodType).safeParse(input);
  if (!parsed.success) {
    return {
      result: errorResult(
        "INVALID_ARGS",
        formatInputError(tool.name, parsed.error, input, TOOL_EXAMPLES[tool.name]),
        {
          tool: tool.name,
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String),
            message: issue.message,
          })),
        },
      ),
      handled: false,
    };
  }
  let result: ToolResult;
  try {
    result = await tool.handler(parsed.data, session);
  } catch (error) {
    if (!isSkillgateError(error)) throw error;
    result = errorResult(error.code, error.message, { details: error.details });
  }
  return { result, handled: true };
}

/**
 * Error messages are written for operators and logs (absolute paths, shared with the CLI); the agent works in
 * workspace-relative paths and the host folder of the workspace is not its business, so an error's text shows
 * `<ws>/a/b` as `a/b` and the workspace itself as `.`, or `'.'` where it ends a sentence (a tool's own success text,
 * e.g. GetFileInfo's UCAgent "Absolute path" line, is left as the tool wrote it).
 */
function withoutWorkspacePath(session: Session, result: ToolResult): ToolResult {
  const root = session.paths.root.replace(/\/+$/, "");
  if (!result.isError || root.length <= 1 || !result.text.includes(root)) return result;
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const text = result.text
    .replace(new RegExp(`${escaped}/`, "g"), "")
    // The root ending a sentence is quoted, so "outside <ws>." reads "outside '.'." rather than "outside ..".
    .replace(new RegExp(`${escaped}(?=\\.(?:\\s|$))`, "g"), "'.'")
    .replace(new RegExp(`${escaped}(?![\\w-]|\\.[\\w-])`, "g"), ".");
  return { ...result, text };
}

/** Engine warnings (e.g. a tampered ledger, a failed hook) not yet shown go on this result: the one place they are drained. */
function withPendingWarnings(session: Session, result: ToolResult): ToolResult {
  return withWarnings(result, session.engine.drainWarnings?.() ?? []);
}
