// The contract every agent tool implements, and the per-workspace session the handlers receive (tools and above).
import type { z } from "zod";
import type { RuntimeConfig, SkillgateConfig } from "../config/index.js";
import type { ToolName, ToolResult, WorkspacePaths } from "../contracts/index.js";
import type { CatalogSnapshot } from "../skills/index.js";
import type { StageEngine } from "../stage/index.js";

export interface Session {
  paths: WorkspacePaths;
  config: SkillgateConfig;
  runtime: RuntimeConfig;
  skillsEnabled: boolean;
  /** File tools offered (EditTextFile, ...): false with `serve --no-file-tools`; unset = config `file_tools`. */
  fileTools?: boolean;
  /**
   * Current catalog of the workspace copy; null when the skill folder is missing. Refreshes on change. With
   * `since` (`catalogMark()` taken when the call arrived) it holds every change made before the call, and calls
   * that arrived together share one check of the folder watcher.
   */
  catalog(since?: number): CatalogSnapshot | null;
  /** A mark for `catalog(since)`; absent where every snapshot is checked anyway (one-shot processes). */
  catalogMark?(): number;
  engine: StageEngine;
  /**
   * Set when the engine starts on first use (`openSession({ engineOnUse })`): starts it if it has not started and
   * rejects with its start error. callTool awaits it before answering, so that error is still the call's error.
   */
  engineStarted?(): Promise<void>;
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
