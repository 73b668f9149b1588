// CopyFile (UCAgent): copy a workspace file (read anywhere inside) to a destination inside the writable folders.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { copyWorkspaceFile, statWorkspacePathIfExists } from "../workspace/index.js";
import {
  fileErrorResult,
  filePolicy,
  humanSize,
  MAX_TEXT_BYTES,
  precheckWrite,
  withPathLock,
} from "./file-common.js";
import { okResult } from "./results.js";
import { destinationExists, overwriteArg, sourceNotAFile } from "./transfer.js";
import type { Session, ToolDefinition } from "./types.js";

export const copyFileInput = z
  .object({
    source_path: z.string().min(1).describe("Source file path to copy from, relative to the workspace."),
    dest_path: z
      .string()
      .min(1)
      .describe("Destination file path to copy to, relative to the workspace. Created if not exists."),
    overwrite: overwriteArg,
  })
  .strict();

export async function copyFile(input: z.infer<typeof copyFileInput>, session: Session): Promise<ToolResult> {
  const { source_path: from, dest_path: to } = input;
  const policy = filePolicy(session);
  const refused = await precheckWrite(session, policy, to);
  if (refused) return { ...refused, text: `Destination file error: ${refused.text}` };
  return withPathLock(session, [to], async () => {
    let source: Awaited<ReturnType<typeof statWorkspacePathIfExists>>;
    try {
      source = await statWorkspacePathIfExists(session.paths.root, from, { follow: true });
    } catch (error) {
      return fileErrorResult(error, null, from, "Source file error: ");
    }
    if (source?.kind !== "file") return sourceNotAFile(source, from);
    try {
      const existing = await statWorkspacePathIfExists(session.paths.root, to, { follow: false });
      if (existing && !input.overwrite) {
        return destinationExists(to);
      }
      const written = await copyWorkspaceFile(session.paths.root, from, to, {
        policy: policy.policy,
        overwrite: input.overwrite,
        createParents: true,
        maxBytes: MAX_TEXT_BYTES,
      });
      return okResult(`File copied successfully from '${from}' to '${to}' (${humanSize(written.size)})`, {
        source_path: from,
        dest_path: to,
        bytes: written.size,
        overwritten: !written.created,
      });
    } catch (error) {
      if ((error as { code?: string }).code === "FILE_EXISTS") {
        return destinationExists(to);
      }
      return fileErrorResult(error, policy, to, "Destination file error: ");
    }
  });
}

export const copyFileTool: ToolDefinition<typeof copyFileInput> = {
  name: "CopyFile",
  description:
    "Copy a file from source to destination within the workspace. Creates destination directory if it doesn't " +
    "exist. Optionally overwrites existing files.",
  inputSchema: copyFileInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => copyFile(input, session),
};
