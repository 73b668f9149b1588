// The contract every agent tool implements, and the per-workspace session the handlers receive.
import type { z } from "zod";
import type { SkillgateConfig } from "../config/schema.js";
import type { ErrorCode } from "../errors.js";
import type { CatalogSnapshot } from "../skills/types.js";
import type { StageEngine } from "../stage/types.js";
import type { WorkspacePaths } from "../workspace/paths.js";

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

/** Resolved contents of <ws>/.ucagent/runtime_config.json. */
export interface RuntimeConfig {
  schema_version: 1;
  workspace: string;
  /** Absolute paths. */
  DUT: string;
  OUT: string;
  skills_enabled: boolean;
  skills_dir: string;
  pack_path: string | null;
  initialised_at: string;
}

export interface Session {
  paths: WorkspacePaths;
  config: SkillgateConfig;
  runtime: RuntimeConfig;
  skillsEnabled: boolean;
  /** File tools offered (EditTextFile, ...): false with `serve --no-file-tools`; unset = config `file_tools`. */
  fileTools?: boolean;
  /** Current catalog of the workspace copy; null when the skill folder is missing. Refreshes on change. */
  catalog(): CatalogSnapshot | null;
  engine: StageEngine;
}

export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: ToolName;
  /** Description shown to the model (MCP tool description). */
  description: string;
  inputSchema: Schema;
  /** Skill tools are not offered when skills are disabled (as UCAgent). */
  skillTool: boolean;
  /** UCAgent file tools: left out with `serve --no-file-tools` or `file_tools: false`. */
  fileTool?: boolean;
  handler(input: z.infer<Schema>, session: Session): Promise<ToolResult>;
}
