// Every agent tool definition, in the order agents use them (one module, so a one-tool build of `call` can replace it).
import { checkTool } from "./check.js";
import { completeTool } from "./complete.js";
import { copyFileTool } from "./copy-file.js";
import { createDirectoryTool } from "./create-directory.js";
import { deleteFileTool } from "./delete-file.js";
import { deleteTextLinesTool } from "./delete-text-lines.js";
import { editTextFileTool } from "./edit-text-file.js";
import { findFilesTool } from "./find-files.js";
import { getFileInfoTool } from "./get-file-info.js";
import { listSkillTool } from "./list-skill.js";
import { moveFileTool } from "./move-file.js";
import { pathListTool } from "./path-list.js";
import { readTextFileTool } from "./read-text-file.js";
import { replaceStringInFileTool } from "./replace-string-in-file.js";
import { runSkillScriptTool } from "./run-skill-script.js";
import { searchTextTool } from "./search-text.js";
import { setSkillUsageTool } from "./set-skill-usage.js";
import { statusTool } from "./status.js";
import type { ToolDefinition } from "./types.js";

/** All tools in the order agents use them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  listSkillTool,
  readTextFileTool,
  runSkillScriptTool,
  setSkillUsageTool,
  checkTool,
  completeTool,
  statusTool,
  editTextFileTool,
  replaceStringInFileTool,
  deleteTextLinesTool,
  pathListTool,
  findFilesTool,
  searchTextTool,
  getFileInfoTool,
  createDirectoryTool,
  copyFileTool,
  moveFileTool,
  deleteFileTool,
] as ToolDefinition[];
