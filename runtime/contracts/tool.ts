// The tool-call contract every layer shares: the UCAgent tool names and the result a tool (or the stage engine) returns.
import type { ErrorCode } from "../errors.js";

export const TOOL_NAMES = [
  "ListSkill",
  "ReadTextFile",
  "RunSkillScript",
  "SetSkillUsage",
  "Check",
  "Complete",
  "Status",
  "EditTextFile",
  "ReplaceStringInFile",
  "DeleteTextLines",
  "PathList",
  "FindFiles",
  "SearchText",
  "GetFileInfo",
  "CreateDirectory",
  "CopyFile",
  "MoveFile",
  "DeleteFile",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface ToolResult {
  /** Text for the model (UCAgent wording where UCAgent has one). */
  text: string;
  /** JSON for programs. */
  structured: Record<string, unknown>;
  /** Failed work or a bad call the agent can act on. */
  isError: boolean;
  /** Stable code when isError. */
  code?: ErrorCode;
}
