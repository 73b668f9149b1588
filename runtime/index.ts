// The skillgate library API (named exports only): sessions, tools, MCP server, config, workspace, skills, exec, stages.
export { SkillgateError, isSkillgateError, ERROR_CODES } from "./errors.js";
export type { ErrorCode } from "./errors.js";

export { openSession, ALL_TOOLS, TOOL_EXAMPLES, TOOL_NAMES, callTool, findTool, toolsFor } from "./tools/index.js";
export type {
  CommandRecord,
  ListedSkill,
  OpenSessionOptions,
  OpenedSession,
  RuntimeConfig,
  Session,
  ToolDefinition,
  ToolName,
  ToolResult,
} from "./tools/index.js";

export { createMcpServer, serveHttp, serveStdio, parseListenAddress, MCP_PATH } from "./mcp/index.js";
export type { HttpServing, StdioServing } from "./mcp/index.js";

export { ConfigSchema, loadConfig, skillFlagsFromArgv, skillgateHome } from "./config/index.js";
export type { ExecConfig, SkillgateConfig, StageConfig, CheckerConfig } from "./config/index.js";

export { initWorkspace, readRuntimeConfig } from "./workspace/index.js";
export { workspacePaths } from "./workspace/paths.js";
export type { WorkspacePaths } from "./workspace/paths.js";

export { createCatalog, parseSkillFile, scanSkillRoot, validateSkillDir } from "./skills/index.js";
export type {
  CatalogSnapshot,
  Diagnostic,
  SkillRecord,
  ValidationMode,
  ValidationResult,
} from "./skills/types.js";

export { runScript, splitArgs } from "./exec/index.js";
export type { RunLimits, RunRequest, RunResult, RunStatus, SandboxLevel } from "./exec/types.js";

export { createStageEngine } from "./stage/index.js";
export type { EvidenceKind, ReadRange, SkillEvidence, StageEngine, StageView } from "./stage/types.js";
