// The skillgate library API (named exports only): sessions, tools, MCP server, config, workspace, skills, exec, stages.

export type {
  CheckerConfig,
  ExecConfig,
  RuntimeConfig,
  SkillgateConfig,
  StageConfig,
} from "./config/index.js";
export { ConfigSchema, loadConfig, skillFlagsFromArgv, skillgateHome } from "./config/index.js";
export type { ToolName, ToolResult, WorkspacePaths } from "./contracts/index.js";
export { TOOL_NAMES, workspacePaths } from "./contracts/index.js";
export type { ErrorCode } from "./errors.js";
export { ERROR_CODES, isSkillgateError, SkillgateError } from "./errors.js";
export type { RunLimits, RunRequest, RunResult, RunStatus, SandboxLevel } from "./exec/index.js";
export { runScript, splitArgs } from "./exec/index.js";
export type { HttpServing, StdioServing } from "./mcp/index.js";
export { createMcpServer, MCP_PATH, parseListenAddress, serveHttp, serveStdio } from "./mcp/index.js";
export type { Finding } from "./scan/index.js";
export { scanFiles, scanSkill } from "./scan/index.js";
export type {
  CatalogSnapshot,
  Diagnostic,
  SkillRecord,
  ValidationMode,
  ValidationResult,
} from "./skills/index.js";
export { createCatalog, parseSkillFile, scanSkillRoot, validateSkillDir } from "./skills/index.js";
export type { EvidenceKind, ReadRange, SkillEvidence, StageEngine, StageView } from "./stage/index.js";
export { createStageEngine } from "./stage/index.js";
export type {
  CommandRecord,
  ListedSkill,
  OpenedSession,
  OpenSessionOptions,
  Session,
  ToolDefinition,
} from "./tools/index.js";
export { ALL_TOOLS, callTool, findTool, openSession, TOOL_EXAMPLES, toolsFor } from "./tools/index.js";
export { initWorkspace, readRuntimeConfig } from "./workspace/index.js";
