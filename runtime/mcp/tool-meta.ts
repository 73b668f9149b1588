// MCP metadata of every tool: a human title, behaviour annotations and the JSON Schema of its structuredContent.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

export interface ToolMeta {
  title: string;
  annotations: ToolAnnotations;
  /** JSON Schema (type object) every structuredContent of the tool validates against, success or error. */
  outputSchema: { type: "object"; [key: string]: unknown };
}

type Props = Record<string, unknown>;

const str = { type: "string" };
const int = { type: "integer" };
const bool = { type: "boolean" };
const strOrNull = { type: ["string", "null"] };
const strings = { type: "array", items: str };
const obj = { type: "object" };

/** Fields every result may carry: an error (isError results), its code, warnings of the engine. */
const COMMON: Props = {
  error: {
    type: "object",
    properties: { code: str, message: str },
    required: ["code", "message"],
  },
  code: str,
  warnings: strings,
  details: obj,
  disabled: bool,
  reason: str,
};

/** Open object schema: the listed fields have these types when present; engines may add fields. */
function schema(properties: Props): ToolMeta["outputSchema"] {
  return { type: "object", properties: { ...COMMON, ...properties }, additionalProperties: true };
}

const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const stateful = (idempotent: boolean): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: idempotent,
  openWorldHint: false,
});
const destructive = (idempotent: boolean): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: idempotent,
  openWorldHint: false,
});

const stageRef = { type: ["object", "null"], properties: { index: int, name: str } };
const sha = { type: "string", pattern: "^[0-9a-f]{64}$" };
const fileChange = {
  path: str,
  changed: bool,
  before_sha256: sha,
  after_sha256: sha,
  diff: str,
};

export const TOOL_META: Record<string, ToolMeta> = {
  ListSkill: {
    title: "List stage skills",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      stage: strOrNull,
      count: int,
      skills: {
        type: "array",
        items: {
          type: "object",
          properties: {
            id: str,
            name: str,
            description: str,
            path: str,
            source: { enum: ["stage", "general"] },
            scripts: { type: "array", items: { type: "object", properties: { file: str, path: str } } },
          },
          required: ["id", "name", "description", "path", "scripts", "source"],
        },
      },
      missing_stage_skills: strings,
      max_skill_list_count: int,
      skill_root: str,
    }),
  },
  ReadTextFile: {
    title: "Read text file",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      path: str,
      start: int,
      end: int,
      total_lines: int,
      remaining_lines: int,
      content: str,
      sha256: sha,
      skill_read: {
        type: ["object", "null"],
        properties: { skill_id: str, read_complete: bool },
      },
    }),
  },
  RunSkillScript: {
    title: "Run skill scripts",
    // Scripts may rewrite files in the writable area; they run sandboxed without network unless the operator grants it.
    annotations: destructive(false),
    outputSchema: schema({
      ran: int,
      total: int,
      used: strings,
      commands: { type: "array", items: obj },
    }),
  },
  SetSkillUsage: {
    title: "Record skill usage",
    annotations: stateful(true),
    outputSchema: schema({ accepted: bool, stage: { type: ["object", "string", "null"] } }),
  },
  Check: {
    title: "Check the stage",
    annotations: stateful(true),
    outputSchema: schema({
      stage: stageRef,
      check_pass: bool,
      checkers: { type: "array", items: obj },
      failed_checker: { type: ["integer", "null"] },
      next_action: str,
    }),
  },
  Complete: {
    title: "Complete the stage",
    annotations: stateful(false),
    outputSchema: schema({
      complete: bool,
      finished: bool,
      checkers_run: int,
      next_action: str,
      next_stage: { type: ["object", "null"] },
    }),
  },
  Status: {
    title: "Workflow status",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      stages: { type: "array", items: obj },
      current_stage_index: { type: ["integer", "null"] },
      current_stage_name: strOrNull,
      finished: bool,
      skills_enabled: bool,
    }),
  },
  EditTextFile: {
    title: "Write text file",
    annotations: destructive(false),
    outputSchema: schema({ ...fileChange, created: bool, append: bool }),
  },
  ReplaceStringInFile: {
    title: "Replace text in file",
    annotations: destructive(false),
    outputSchema: schema({ ...fileChange, dry_run: bool, line_blocks: { type: ["array", "null"] } }),
  },
  DeleteTextLines: {
    title: "Delete text lines",
    annotations: destructive(false),
    outputSchema: schema({
      ...fileChange,
      deleted_line_count: int,
      deleted_line_blocks: { type: "array", items: { type: "array", items: int } },
      remaining_line_count: int,
    }),
  },
  PathList: {
    title: "List folder",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      path: str,
      directories: int,
      files: int,
      entries: {
        type: "array",
        items: {
          type: "object",
          properties: {
            path: str,
            type: { enum: ["directory", "text", "binary"] },
            bytes: { type: ["integer", "null"] },
          },
        },
      },
      truncated: bool,
    }),
  },
  FindFiles: {
    title: "Find files by name",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({ pattern: str, directory: str, files: strings, truncated: bool }),
  },
  SearchText: {
    title: "Search text in files",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      pattern: str,
      directory: str,
      matching_lines: int,
      matching_files: int,
      files: {
        type: "array",
        items: { type: "object", properties: { path: str, lines: { type: "array", items: obj } } },
      },
      truncated: bool,
    }),
  },
  GetFileInfo: {
    title: "File information",
    annotations: { ...readOnly, idempotentHint: true },
    outputSchema: schema({
      path: str,
      type: { enum: ["file", "directory", "other"] },
      bytes: int,
      text: bool,
      line_count: int,
      sha256: sha,
      files: int,
      directories: int,
      permissions: str,
      modified: str,
    }),
  },
  CreateDirectory: {
    title: "Create folder",
    annotations: stateful(true),
    outputSchema: schema({ path: str, created: bool }),
  },
  CopyFile: {
    title: "Copy file",
    annotations: destructive(false),
    outputSchema: schema({ source_path: str, dest_path: str, bytes: int, sha256: sha, overwritten: bool }),
  },
  MoveFile: {
    title: "Move or rename file",
    annotations: destructive(false),
    outputSchema: schema({ source_path: str, dest_path: str, bytes: int, overwritten: bool }),
  },
  DeleteFile: {
    title: "Delete file or folder",
    annotations: destructive(false),
    outputSchema: schema({ path: str, is_dir: bool, recursive: bool, deleted: bool }),
  },
};

/** The metadata of a tool; every offered tool has one (a test holds the table complete). */
export function toolMeta(name: string): ToolMeta {
  const meta = TOOL_META[name];
  if (!meta)
    throw new Error(`no MCP metadata for tool ${name}: add it to TOOL_META in runtime/mcp/tool-meta.ts`);
  return meta;
}
