// MoveFile (UCAgent): move or rename a file; both source and destination must be inside the writable folders.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { moveWorkspacePath, statWorkspacePathIfExists } from "../workspace/index.js";
import {
  fileErrorResult,
  filePolicy,
  humanSize,
  lexicalRel,
  precheckWrite,
  withPathLock,
} from "./file-common.js";
import { errorResult, okResult } from "./results.js";
import { destinationExists, overwriteArg, sourceNotAFile } from "./transfer.js";
import type { Session, ToolDefinition } from "./types.js";

export const moveFileInput = z
  .object({
    source_path: z.string().min(1).describe("Source file path to move from, relative to the workspace."),
    dest_path: z.string().min(1).describe("Destination file path to move to, relative to the workspace."),
    overwrite: overwriteArg,
  })
  .strict();

export async function moveFile(input: z.infer<typeof moveFileInput>, session: Session): Promise<ToolResult> {
  const { source_path: from, dest_path: to } = input;
  const policy = filePolicy(session);
  const refusedSource = await precheckWrite(session, policy, from);
  if (refusedSource) return { ...refusedSource, text: `Source file error: ${refusedSource.text}` };
  const refusedDest = await precheckWrite(session, policy, to);
  if (refusedDest) return { ...refusedDest, text: `Destination file error: ${refusedDest.text}` };
  if (lexicalRel(session, from) === lexicalRel(session, to)) {
    return errorResult("INVALID_ARGS", "Source and destination resolve to the same file.", { path: to });
  }
  return withPathLock(session, [from, to], async () => {
    try {
      const source = await statWorkspacePathIfExists(session.paths.root, from, { follow: false });
      if (source?.kind !== "file") return sourceNotAFile(source, from);
      const existing = await statWorkspacePathIfExists(session.paths.root, to, { follow: false });
      // A folder is never replaced: the move below refuses it (a write_dirs folder with its own fix).
      if (existing && existing.kind !== "directory" && !input.overwrite) {
        return destinationExists(to);
      }
      await moveWorkspacePath(session.paths.root, from, to, {
        policy: policy.policy,
        overwrite: input.overwrite,
        createParents: true,
      });
      return okResult(`File moved successfully from '${from}' to '${to}' (${humanSize(source.size)})`, {
        source_path: from,
        dest_path: to,
        bytes: source.size,
        overwritten: existing !== null,
      });
    } catch (error) {
      return fileErrorResult(error, policy, to);
    }
  });
}

export const moveFileTool: ToolDefinition<typeof moveFileInput> = {
  name: "MoveFile",
  description:
    "Move or rename a file from source to destination within the workspace. Creates destination directory if it " +
    "doesn't exist. Optionally overwrites existing files.",
  inputSchema: moveFileInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => moveFile(input, session),
};
