// FindFiles (UCAgent): workspace files whose name matches a shell-style pattern, hidden and state folders skipped.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { fileErrorResult, fnmatchRegExp } from "./file-common.js";
import { hasHiddenSegment, matchPatternList, walkWorkspace } from "./file-scan.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const findFilesInput = z
  .object({
    pattern: z.string().describe("File name pattern to search for in the directory. "),
    directory: z
      .string()
      .default("")
      .describe(
        "Subdirectory path to search in, relative to the workspace. If empty, searches in the entire workspace.",
      ),
    max_match_files: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe("Maximum number of matching files to return. "),
  })
  .strict();

export const FIND_IGNORE = [".git/*", ".ucagent/*", "*.dat", "*.fst"];

export async function findFiles(
  input: z.infer<typeof findFilesInput>,
  session: Session,
): Promise<ToolResult> {
  const { pattern, directory } = input;
  if (!pattern) return errorResult("INVALID_ARGS", "No file pattern provided for search.", {});
  let walked: Awaited<ReturnType<typeof walkWorkspace>>;
  try {
    walked = await walkWorkspace(session.paths.root, directory || ".");
  } catch (error) {
    return fileErrorResult(error, null, directory || ".");
  }
  const matcher = fnmatchRegExp(pattern);
  const found: string[] = [];
  let truncated = false;
  for (const entry of walked.entries) {
    if (entry.kind === "directory" || hasHiddenSegment(entry.rel) || matchPatternList(entry.rel, FIND_IGNORE))
      continue;
    if (!matcher.test(entry.rel.split("/").at(-1)!)) continue;
    found.push(entry.rel);
    if (found.length >= input.max_match_files) {
      truncated = true;
      break;
    }
  }
  if (found.length === 0) {
    return errorResult(
      "MATCH_NOT_FOUND",
      `No matches found for '${pattern}' in the specified directory(${directory}).`,
      { pattern, directory, files: [] },
    );
  }
  const list = [...found, ...(truncated ? [`... (truncated to ${input.max_match_files} files)`] : [])];
  return okResult(`Found ${found.length} matching files.\n\n${list.join("\n")}`, {
    pattern,
    directory,
    files: found,
    truncated,
  });
}

export const findFilesTool: ToolDefinition<typeof findFilesInput> = {
  name: "FindFiles",
  description:
    "Find files in a workspace directory matching a specific pattern. Returns a list of matching file paths.",
  inputSchema: findFilesInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => findFiles(input, session),
};
