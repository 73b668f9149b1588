// What CopyFile and MoveFile share: the overwrite argument, the source-must-be-a-file check, the destination-exists result.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import type { SafeStat } from "../workspace/index.js";
import { errorResult } from "./results.js";

export const overwriteArg = z
  .boolean()
  .default(false)
  .describe(
    "If True, overwrite destination file if it exists. If False, return error if destination exists.",
  );

/** FILE_NOT_FOUND for a missing source, NOT_REGULAR_FILE for one that is not a file (call it only for those). */
export function sourceNotAFile(source: SafeStat | null, from: string): ToolResult {
  if (!source) return errorResult("FILE_NOT_FOUND", `Source file ${from} does not exist.`, { path: from });
  return errorResult("NOT_REGULAR_FILE", `Source file error: Path ${from} is not a file in workspace.`, {
    path: from,
  });
}

/** FILE_EXISTS: the destination is there and overwrite was not asked for. */
export function destinationExists(to: string): ToolResult {
  return errorResult(
    "FILE_EXISTS",
    `Destination file ${to} already exists. Use overwrite=True to replace it.`,
    {
      path: to,
    },
  );
}
