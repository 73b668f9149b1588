// PathList (UCAgent): every file and folder below a workspace folder, with type (text/binary) and size, depth-bounded.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { fileErrorResult, fnmatchRegExp, humanSize } from "./file-common.js";
import { isTextFile, MAX_WALK_ENTRIES, type WalkedEntry, walkWorkspace } from "./file-scan.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const pathListInput = z
  .object({
    path: z.string().default(".").describe("Directory path to list files from, relative to the workspace."),
    depth: z
      .number()
      .int()
      .min(-1)
      .default(-1)
      .describe("Subdirectory depth to list. -1: all levels, 0: only current directory."),
  })
  .strict();

const IGNORE = [fnmatchRegExp("*__pycache__*")];

export async function pathList(input: z.infer<typeof pathListInput>, session: Session): Promise<ToolResult> {
  const path = input.path === "" ? "." : input.path;
  const depth = input.depth < 0 ? Number.POSITIVE_INFINITY : input.depth;
  let walked: Awaited<ReturnType<typeof walkWorkspace>>;
  try {
    walked = await walkWorkspace(session.paths.root, path, Number.isFinite(depth) ? depth + 1 : 20);
  } catch (error) {
    return fileErrorResult(error, null, path);
  }
  // os.walk order (UCAgent): a folder's files first, then each sub-folder's line, files and sub-folders.
  const children = new Map<string, WalkedEntry[]>();
  for (const entry of walked.entries) {
    const parent = entry.path.includes("/") ? entry.path.slice(0, entry.path.lastIndexOf("/")) : "";
    children.set(parent, [...(children.get(parent) ?? []), entry]);
  }
  const rows: { rel: string; type: "directory" | "text" | "binary"; bytes: number | null }[] = [];
  const visit = async (dir: string, level: number): Promise<void> => {
    const entries = children.get(dir) ?? [];
    for (const file of entries.filter((entry) => entry.kind !== "directory")) {
      if (IGNORE.some((re) => re.test(file.rel))) continue;
      const text = file.kind === "file" && (await isTextFile(session.paths.root, file.rel));
      rows.push({ rel: file.rel, type: text ? "text" : "binary", bytes: file.size });
    }
    for (const sub of entries.filter((entry) => entry.kind === "directory")) {
      if (level + 1 > depth || IGNORE.some((re) => re.test(sub.rel))) continue;
      rows.push({ rel: `${sub.rel}/`, type: "directory", bytes: null });
      await visit(sub.path, level + 1);
    }
  };
  await visit("", 0);
  if (rows.length === 0) {
    return errorResult("FILE_NOT_FOUND", `No files found in the specified directory(${input.path}).`, {
      path,
    });
  }
  const lines = rows.map((row, index) =>
    row.type === "directory"
      ? `${index}    ${row.rel}    (type: directory, size: N/A, bytes: N/A)`
      : `${index}    ${row.rel}    (type: ${row.type}, size: ${humanSize(row.bytes ?? 0)}, bytes: ${row.bytes})`,
  );
  const directories = rows.filter((row) => row.type === "directory").length;
  const files = rows.length - directories;
  const truncated = walked.truncated
    ? `\n... (listing stopped after ${MAX_WALK_ENTRIES} entries; list a sub-folder or pass a smaller depth)`
    : "";
  return okResult(
    `Found ${directories} directories and ${files} files in workspace.\n\nIndex    Name    (Type, Size, Bytes)\n${lines.join("\n")}${truncated}`,
    {
      path,
      directories,
      files,
      entries: rows.map((row) => ({ path: row.rel, type: row.type, bytes: row.bytes })),
      truncated: walked.truncated,
    },
  );
}

export const pathListTool: ToolDefinition<typeof pathListInput> = {
  name: "PathList",
  description:
    "List all files and directories in a workspace directory, including subdirectories. Returns a list with: " +
    "Index    Name    (Type, Size, Bytes).",
  inputSchema: pathListInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => pathList(input, session),
};
