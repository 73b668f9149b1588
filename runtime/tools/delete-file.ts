// DeleteFile (UCAgent): delete a file, or a folder (recursive on request), inside the writable folders only.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { readWorkspaceFile, removeWorkspacePath, statWorkspacePathIfExists } from "../workspace/index.js";
import { sha256Arg } from "./edit-text-file.js";
import { fileErrorResult, filePolicy, precheckWrite, withPathLock } from "./file-common.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const deleteFileInput = z
  .object({
    path: z.string().min(1).describe("File path to delete, relative to the workspace."),
    is_dir: z
      .boolean()
      .default(false)
      .describe("If True, means path is a directory to delete, otherwise a file."),
    recursive: z
      .boolean()
      .default(false)
      .describe(
        "If True and is_dir is True, recursively delete directory and all its contents. Use with caution!",
      ),
    expected_sha256: sha256Arg
      .optional()
      .describe("Optional expected SHA-256 for file deletion. Ignored for directories."),
  })
  .strict();

export async function deleteFile(
  input: z.infer<typeof deleteFileInput>,
  session: Session,
): Promise<ToolResult> {
  const { path, is_dir: isDir, recursive } = input;
  const policy = filePolicy(session);
  const refused = await precheckWrite(session, policy, path);
  if (refused) return refused;
  return withPathLock(session, [path], async () => {
    try {
      const entry = await statWorkspacePathIfExists(session.paths.root, path, { follow: false });
      if (!entry) {
        return errorResult(
          "FILE_NOT_FOUND",
          isDir
            ? `Path ${path} does not exist in workspace.`
            : `File ${path} does not exist in workspace. Please create it first.`,
          { path },
        );
      }
      if (entry.kind === "directory" && !isDir) {
        return errorResult(
          "INVALID_ARGS",
          `Path ${path} is a directory, but 'is_dir' is False. Please set 'is_dir' to True to delete directories.`,
          { path },
        );
      }
      if (entry.kind !== "directory" && isDir) {
        return errorResult(
          "INVALID_ARGS",
          `Path ${path} is a file, but 'is_dir' is True. Please set 'is_dir' to False to delete files.`,
          { path },
        );
      }
      if (!isDir && input.expected_sha256 !== undefined) {
        const current = (await readWorkspaceFile(session.paths.root, path)).sha256;
        if (current !== input.expected_sha256) {
          return errorResult(
            "FILE_CHANGED",
            `File ${path} changed after it was read. Expected SHA256 ${input.expected_sha256}, current SHA256 ${current}.`,
            { path, expected_sha256: input.expected_sha256, current_sha256: current },
          );
        }
      }
      if (isDir && !recursive) {
        const removed = await removeWorkspacePath(session.paths.root, path, { policy: policy.policy }).catch(
          (error: { code?: string }) => {
            if (error.code === "INVALID_ARGS") return null;
            throw error;
          },
        );
        if (!removed) {
          return errorResult(
            "INVALID_ARGS",
            `Directory ${path} is not empty. Use 'recursive=True' to delete non-empty directories.`,
            { path },
          );
        }
        return okResult(`Empty directory ${path} deleted successfully.`, {
          path,
          is_dir: true,
          recursive,
          deleted: true,
        });
      }
      await removeWorkspacePath(session.paths.root, path, {
        policy: policy.policy,
        recursive: isDir && recursive,
      });
      return okResult(
        isDir
          ? `Directory ${path} and all its contents deleted successfully.`
          : `File ${path} deleted successfully.`,
        { path, is_dir: isDir, recursive, deleted: true },
      );
    } catch (error) {
      return fileErrorResult(error, policy, path);
    }
  });
}

export const deleteFileTool: ToolDefinition<typeof deleteFileInput> = {
  name: "DeleteFile",
  description:
    "Delete a file or directory in the workspace. Supports recursive deletion for directories with all their " +
    "contents. If file/directory does not exist, returns an error message.",
  inputSchema: deleteFileInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => deleteFile(input, session),
};
