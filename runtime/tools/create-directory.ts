// CreateDirectory (UCAgent): create a folder inside the writable folders, optionally with its parents.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { mkdirWorkspace, statWorkspacePathIfExists } from "../workspace/index.js";
import { fileErrorResult, filePolicy, precheckWrite } from "./file-common.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const createDirectoryInput = z
  .object({
    path: z.string().min(1).describe("Directory path to create, relative to the workspace."),
    parents: z
      .boolean()
      .default(true)
      .describe("If True, create parent directories as needed. If False, fail if parent doesn't exist."),
    exist_ok: z
      .boolean()
      .default(true)
      .describe(
        "If True, don't raise an error if directory already exists. If False, fail if directory exists.",
      ),
  })
  .strict();

export async function createDirectory(
  input: z.infer<typeof createDirectoryInput>,
  session: Session,
): Promise<ToolResult> {
  const { path } = input;
  const policy = filePolicy(session);
  const refused = await precheckWrite(session, policy, path);
  if (refused) return { ...refused, text: `Directory creation error: ${refused.text}` };
  try {
    const existing = await statWorkspacePathIfExists(session.paths.root, path, { follow: false });
    if (existing?.kind === "file") {
      return errorResult("FILE_EXISTS", `Path ${path} already exists as a file, cannot create directory.`, {
        path,
      });
    }
    if (existing?.kind === "directory") {
      if (!input.exist_ok) {
        return errorResult(
          "FILE_EXISTS",
          `Directory ${path} already exists. Use exist_ok=True to ignore this error.`,
          {
            path,
          },
        );
      }
      return okResult(`Directory ${path} already exists.`, { path, created: false });
    }
    await mkdirWorkspace(session.paths.root, path, { policy: policy.policy, recursive: input.parents });
    return okResult(`Directory ${path} created successfully.`, { path, created: true });
  } catch (error) {
    const result = fileErrorResult(error, policy, path, "Directory creation error: ");
    if (result.code === "FILE_NOT_FOUND" && !input.parents) {
      return errorResult(
        "FILE_NOT_FOUND",
        `Parent directory does not exist for ${path}. Use parents=True to create parent directories.`,
        { path },
      );
    }
    return result;
  }
}

export const createDirectoryTool: ToolDefinition<typeof createDirectoryInput> = {
  name: "CreateDirectory",
  description:
    "Create a directory in the workspace. Optionally creates parent directories and handles existing directories " +
    "gracefully.",
  inputSchema: createDirectoryInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => createDirectory(input, session),
};
