// GetFileInfo (UCAgent): type, size, line count, SHA-256, permissions and times of a workspace file or folder.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { listWorkspaceDir, readWorkspaceText, statWorkspacePath } from "../workspace/index.js";
import { fileErrorResult, humanSize, MAX_TEXT_BYTES } from "./file-common.js";
import { isTextFile } from "./file-scan.js";
import { splitLines } from "./read-text-file.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const getFileInfoInput = z
  .object({
    path: z.string().describe("File or directory path to get information about, relative to the workspace."),
    include_stats: z
      .boolean()
      .default(true)
      .describe("If True, include detailed file statistics (size, modification time, permissions, etc.)."),
  })
  .strict();

const pad = (n: number) => String(n).padStart(2, "0");
/** Python's time.strftime('%Y-%m-%d %H:%M:%S', localtime(...)). */
function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Python's stat.filemode for files and folders. */
function fileMode(kind: string, mode: number): string {
  const type = kind === "directory" ? "d" : kind === "symlink" ? "l" : "-";
  const bits = ["r", "w", "x"];
  let out = type;
  for (let shift = 8; shift >= 0; shift--) out += mode & (1 << shift) ? bits[(8 - shift) % 3] : "-";
  return out;
}

export async function getFileInfo(
  input: z.infer<typeof getFileInfoInput>,
  session: Session,
): Promise<ToolResult> {
  const path = input.path === "" ? "." : input.path;
  const root = session.paths.root;
  try {
    const info = await statWorkspacePath(root, path, { follow: true });
    const lines = [`Path: ${input.path}`, `Absolute path: ${info.realPath}`];
    const structured: Record<string, unknown> = { path: input.path };
    if (info.kind === "file") {
      lines.push("Type: File", `Size: ${humanSize(info.size)} (${info.size} bytes)`);
      const text = await isTextFile(root, info.path);
      lines.push(`File type: ${text ? "Text" : "Binary"}`);
      Object.assign(structured, { type: "file", bytes: info.size, text });
      if (text) {
        try {
          const read = await readWorkspaceText(root, info.path, { maxBytes: MAX_TEXT_BYTES });
          const count = splitLines(read.text).length;
          lines.push(`Line count: ${count}`, `SHA256: ${read.sha256}`);
          Object.assign(structured, { line_count: count, sha256: read.sha256 });
        } catch (error) {
          if (!(error instanceof SkillgateError)) throw error;
          lines.push("Line count: Unable to determine (encoding error)");
        }
      }
    } else if (info.kind === "directory") {
      lines.push("Type: Directory");
      const listed = await listWorkspaceDir(root, info.path || ".");
      const files = listed.entries.filter((entry) => entry.kind === "file").length;
      const directories = listed.entries.filter((entry) => entry.kind === "directory").length;
      lines.push(`Contains: ${files} files, ${directories} directories`);
      Object.assign(structured, { type: "directory", files, directories });
    } else {
      lines.push(`Type: ${info.kind}`);
      Object.assign(structured, { type: "other" });
    }
    if (input.include_stats) {
      const permissions = fileMode(info.kind, info.mode);
      lines.push(`Permissions: ${permissions}`, `Modified: ${localTime(info.mtimeMs)}`);
      Object.assign(structured, { permissions, modified: new Date(info.mtimeMs).toISOString() });
    }
    return okResult(`File information for '${input.path}':\n\n${lines.join("\n")}`, structured);
  } catch (error) {
    if (
      error instanceof SkillgateError &&
      error.code === "FILE_NOT_FOUND" &&
      error.details.reason === "missing"
    ) {
      return errorResult("FILE_NOT_FOUND", `Path ${input.path} does not exist in workspace.`, {
        path: input.path,
      });
    }
    return fileErrorResult(error, null, input.path);
  }
}

export const getFileInfoTool: ToolDefinition<typeof getFileInfoInput> = {
  name: "GetFileInfo",
  description:
    "Get detailed information about a file or directory including size, type, modification time, permissions, and " +
    "other metadata.",
  inputSchema: getFileInfoInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => getFileInfo(input, session),
};
