// Public API of the agent tools: definitions, registry, calling, and opening a workspace session.
export { ALL_TOOLS, TOOL_EXAMPLES, callTool, findTool, toolsFor } from "./registry.js";
export { listSkill, listSkillTool, selectSkills, formatSkillList } from "./list-skill.js";
export type { ListedSkill } from "./list-skill.js";
export { readTextFile, readTextFileTool, MAX_FILE_BYTES, MAX_READ_CHARS } from "./read-text-file.js";
export { runSkillScript, runSkillScriptTool, parseCommandList } from "./run-skill-script.js";
export type { CommandRecord } from "./run-skill-script.js";
export { openSession } from "./session.js";
export type { OpenSessionOptions, OpenedSession, SkillFlags } from "./session.js";
export { skillsDisabledResult } from "./results.js";
export { setSkillUsageTool } from "./set-skill-usage.js";
export { checkTool } from "./check.js";
export { completeTool } from "./complete.js";
export { statusTool } from "./status.js";
export { TOOL_NAMES } from "./types.js";
export type { RuntimeConfig, Session, ToolDefinition, ToolName, ToolResult } from "./types.js";
