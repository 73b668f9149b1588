// ReadTextFile: numbered lines of a UTF-8 text file inside the workspace (no escape), recording reads of stage SKILL.md files.
import { realpath } from "node:fs/promises";
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import type { ReadRange } from "../stage/index.js";
import { readWorkspaceText, type SafeTextResult } from "../workspace/index.js";
import { errorResult, okResult, resultFromError } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

/** Largest file ReadTextFile opens at all. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Largest answer (characters of numbered text); UCAgent's default max_read_size. */
export const MAX_READ_CHARS = 131_072;

export const readTextFileInput = z
  .object({
    path: z.string().min(1).describe("Text file path to read, relative to the workspace."),
    start: z
      .number()
      .int()
      .min(0, "start is a 1-based line number (0 reads from line 1); negative values are not allowed")
      .default(1)
      .describe("Start line index (1-based)."),
    count: z.number().int().min(-1).default(-1).describe("Number of lines to read. -1 means to end of file."),
  })
  .strict();

export type ReadTextFileInput = z.infer<typeof readTextFileInput>;

/** Splits like Python's readlines(): each line keeps its "\n"; no empty last line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

/** The safe reader's refusals in ReadTextFile's (UCAgent-compatible) wording. */
function refusal(error: unknown, shown: string, root: string): ToolResult {
  if (!(error instanceof SkillgateError)) return resultFromError(error);
  const reason = error.details.reason;
  if (error.code === "PATH_OUTSIDE_WORKSPACE" && reason === "absolute")
    return errorResult(
      "PATH_OUTSIDE_WORKSPACE",
      `Path '${shown}' is absolute. Note: Leading '/' indicates an absolute path. Please provide a path relative to ` +
        `the workspace (${root}), e.g. '.ucagent/skills/<skill>/SKILL.md'.`,
      { path: shown },
    );
  if (error.code === "PATH_OUTSIDE_WORKSPACE" && reason === "dotdot")
    return errorResult(
      "PATH_OUTSIDE_WORKSPACE",
      `File '${shown}' is not within the workspace: '..' leads outside ${root}. Please provide a path inside the workspace.`,
      { path: shown },
    );
  if (error.code === "PATH_OUTSIDE_WORKSPACE") {
    const target = String(error.details.target ?? "");
    return errorResult(
      "PATH_OUTSIDE_WORKSPACE",
      `File '${shown}' is not within the workspace: it is a symbolic link to ${target}, outside ${error.details.realRoot ?? root}. ` +
        "Only files inside the workspace can be read.",
      { path: shown, target },
    );
  }
  if (error.code === "FILE_NOT_FOUND" && reason === "missing")
    return errorResult(
      "FILE_NOT_FOUND",
      `File ${shown} does not exist in workspace ${root}. Check the path (relative to the workspace); ListSkill shows ` +
        "the SKILL.md paths of the skills.",
      { path: shown },
    );
  if (error.code === "NOT_REGULAR_FILE" && error.details.kind === "directory")
    return errorResult(
      "FILE_NOT_FOUND",
      `Path '${shown}' is a directory, not a file. Please provide a file path (e.g. '${shown.replace(/\/$/, "")}/SKILL.md').`,
      { path: shown },
    );
  if (error.code === "NOT_REGULAR_FILE")
    return errorResult(
      "NOT_TEXT",
      `Path '${shown}' is not a regular file (it is a ${error.details.kind}), so it cannot be read as text.`,
      { path: shown },
    );
  if (error.code === "FILE_TOO_LARGE")
    return errorResult(
      "FILE_TOO_LARGE",
      `File ${shown} is ${error.details.size} bytes, over the ${MAX_FILE_BYTES}-byte limit of ReadTextFile. Read a smaller file.`,
      { path: shown, size: error.details.size },
    );
  if (error.code === "NOT_TEXT")
    return errorResult(
      "NOT_TEXT",
      `File ${shown} is not a text file (it is not valid UTF-8 text). ReadTextFile reads text files only.`,
      { path: shown },
    );
  return resultFromError(error);
}

export async function readTextFile(input: ReadTextFileInput, session: Session): Promise<ToolResult> {
  const shown = input.path;
  const root = session.paths.root;
  let read: SafeTextResult;
  try {
    read = await readWorkspaceText(root, shown, { maxBytes: MAX_FILE_BYTES });
  } catch (error) {
    return refusal(error, shown, root);
  }
  const real = read.realPath;
  const lines = read.lines;
  const total = lines.length;
  if (input.count === 0) {
    return errorResult(
      "INVALID_ARGS",
      `Count is 0, no lines to read from file ${shown}. Use count -1 to read to the end.`,
      {
        path: shown,
      },
    );
  }
  if (total === 0) {
    return okResult(`File ${shown} is empty (0 lines). SHA256: ${read.sha256}.\n\n[TXT_DATA]\n`, {
      path: shown,
      start: 1,
      end: 0,
      total_lines: 0,
      content: "",
      sha256: read.sha256,
    });
  }
  const first = Math.max(0, input.start - 1);
  if (first >= total) {
    return errorResult(
      "INVALID_ARGS",
      `Start line ${first + 1} is out of range (file has ${total} lines, valid range: 1-${total}).`,
      { path: shown, total_lines: total },
    );
  }
  const taken = input.count === -1 ? total - first : Math.min(input.count, total - first);
  const slice = lines.slice(first, first + taken);
  const width = String(first + taken).length;
  const content = slice.map((line, i) => `${String(first + i + 1).padStart(width)}: ${line}`).join("");
  if (content.length > MAX_READ_CHARS) {
    return errorResult(
      "FILE_TOO_LARGE",
      `Read size ${content.length} characters exceeds the maximum read size of ${MAX_READ_CHARS} characters. ` +
        `You need to specify a smaller range. Current range is (start=${first + 1}, count=${input.count >= 0 ? input.count : "ALL"}).`,
      { path: shown, total_lines: total },
    );
  }
  const range: ReadRange = { startLine: first + 1, endLine: first + taken, totalLines: total };
  let evidence: Record<string, unknown> | null;
  try {
    evidence = await recordSkillRead(session, real, range, read.sha256);
  } catch (error) {
    return resultFromError(error);
  }
  const remaining = total - first - taken;
  const header =
    `Read ${taken}/${total} lines from '${shown}' (lines ${first + 1}-${first + taken}), ` +
    `${remaining} lines remain after the read position. SHA256: ${read.sha256}.`;
  return okResult(`${header}\n\n[TXT_DATA]\n${content}`, {
    path: shown,
    start: range.startLine,
    end: range.endLine,
    total_lines: total,
    remaining_lines: remaining,
    content: slice.join(""),
    sha256: read.sha256,
    skill_read: evidence,
  });
}

/** A read of a current-stage skill's SKILL.md (the workspace copy) is read evidence; other files record nothing. */
async function recordSkillRead(
  session: Session,
  realFile: string,
  range: ReadRange,
  sha256: string,
): Promise<Record<string, unknown> | null> {
  if (!session.skillsEnabled) return null;
  const snapshot = session.catalog();
  if (!snapshot) return null;
  const stage = await session.engine.current();
  if (!stage || stage.skillList.length === 0) return null;
  for (const skill of snapshot.skills) {
    if (!stage.skillList.includes(skill.id)) continue;
    const skillFile = await realpath(skill.skillFile).catch(() => skill.skillFile);
    if (skillFile !== realFile) continue;
    // The bytes returned must be the SKILL.md init recorded (sha256 bound in the ledger), not whatever it says now.
    const complete = await session.engine.recordRead(skill.id, range, { sha256 });
    return { skill_id: skill.id, read_complete: complete };
  }
  return null;
}

export const readTextFileTool: ToolDefinition<typeof readTextFileInput> = {
  name: "ReadTextFile",
  description:
    "Read lines from a text file in the workspace. Supports start line and line count. " +
    `Max read size is ${MAX_READ_CHARS} characters. Each line is prefixed with its index. ` +
    "Note: The file content in return data is after prefix '[TXT_DATA]\\n' and each line has prefix '<index>: '. " +
    "The line index starts from 1. The result includes the file SHA-256 for conflict-safe editing (expected_sha256 of " +
    "EditTextFile, ReplaceStringInFile, DeleteTextLines). Paths are relative to the workspace; read a skill's SKILL.md (path from " +
    "ListSkill) before applying the skill.",
  inputSchema: readTextFileInput,
  skillTool: false,
  handler: (input, session) => readTextFile(input, session),
};
