// Public API of the contracts layer: the types and schemas every other folder shares (it imports only errors.ts).

export type { WorkspacePaths } from "./paths.js";
export { workspacePaths } from "./paths.js";
export type { RuntimeConfig } from "./runtime-config.js";
export { RuntimeConfigSchema } from "./runtime-config.js";
export type { ToolName, ToolResult } from "./tool.js";
export { TOOL_NAMES } from "./tool.js";
