// Public API of the agent tools: definitions, registry, calling, and opening a workspace session.

export { checkTool } from "./check.js";
export { completeTool } from "./complete.js";
export type { ListedSkill } from "./list-skill.js";
export { formatSkillList, listSkill, listSkillTool, selectSkills } from "./list-skill.js";
export {
  MAX_FILE_BYTES,
  MAX_READ_CHARS,
  readTextFile,
  readTextFileTool,
  splitLines,
} from "./read-text-file.js";
export {
  ALL_TOOLS,
  callTool,
  fileToolsEnabled,
  findTool,
  offeredTools,
  TOOL_EXAMPLES,
  toolsFor,
  unknownToolMessage,
} from "./registry.js";
export { skillsDisabledResult, workspaceRelative } from "./results.js";
export type { CommandRecord } from "./run-skill-script.js";
export { parseCommandList, runSkillScript, runSkillScriptTool } from "./run-skill-script.js";
export type { OpenedSession, OpenSessionOptions, SkillFlags } from "./session.js";
export { openSession } from "./session.js";
export { setSkillUsageTool } from "./set-skill-usage.js";
export { statusTool } from "./status.js";
export type { Session, ToolDefinition } from "./types.js";
