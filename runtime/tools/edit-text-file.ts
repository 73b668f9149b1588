// EditTextFile (UCAgent): create, overwrite or append to one UTF-8 text file inside the writable folders, atomically.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { writeWorkspaceFile } from "../workspace/index.js";
import {
  changedSinceRead,
  convertNewlines,
  diffText,
  readSnapshot,
  SHA256_OF_EMPTY,
  sha256Hex,
} from "./file-common.js";
import { okResult } from "./results.js";
import { changedWhilePreparing, editTextUnderLock } from "./text-edit.js";
import type { Session, ToolDefinition } from "./types.js";

const sha256Arg = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "a 64-character lowercase hex SHA-256 as ReadTextFile returns it");

export const editTextFileInput = z
  .object({
    path: z.string().min(1).describe("Text file path to create or edit, relative to the workspace."),
    content: z
      .string()
      .describe("Complete UTF-8 file content. Use an empty string to create or clear an empty file."),
    append: z
      .boolean()
      .default(false)
      .describe(
        "If false, create or overwrite the complete file. If true, append content to the file, creating it when absent.",
      ),
    expected_sha256: sha256Arg
      .optional()
      .describe(
        "Optional SHA-256 returned by ReadTextFile. The edit fails if the file changed since it was read.",
      ),
  })
  .strict();

export { sha256Arg };

const chars = (text: string) => [...text].length;

export async function editTextFile(
  input: z.infer<typeof editTextFileInput>,
  session: Session,
): Promise<ToolResult> {
  const { path, content, append } = input;
  return editTextUnderLock(session, path, async (policy) => {
    const before = await readSnapshot(session, path);
    const beforeSha = before?.sha256 ?? SHA256_OF_EMPTY;
    if (input.expected_sha256 !== undefined && input.expected_sha256 !== beforeSha) {
      return changedSinceRead(path, input.expected_sha256, beforeSha);
    }
    const normalised = before ? convertNewlines(content, before.newline) : content;
    const original = before?.text ?? "";
    const after = append ? original + normalised : normalised;
    if (before && after === original) {
      return okResult(
        `File '${path}' already has the requested content; no write was needed. SHA256: ${beforeSha}.`,
        { path, changed: false, created: false, append, before_sha256: beforeSha, after_sha256: beforeSha },
      );
    }
    const operation = append
      ? `Appended ${chars(content)} characters to '${path}'`
      : before
        ? `Overwrote '${path}' with ${chars(content)} characters`
        : `Created '${path}' with ${chars(content)} characters`;
    if (input.expected_sha256 !== undefined && before) {
      const changed = await changedWhilePreparing(session, path, beforeSha, "the edit");
      if (changed) return changed;
    }
    // A new file is linked in place only if nothing appeared meanwhile (no racing creator is overwritten).
    await writeWorkspaceFile(session.paths.root, path, after, {
      policy: policy.policy,
      overwrite: before !== null,
      createParents: true,
    });
    const afterSha = sha256Hex(after);
    const diff = diffText(path, original, after);
    return okResult(`${operation}. SHA256: ${beforeSha} -> ${afterSha}.${diff}`, {
      path,
      changed: true,
      created: before === null,
      append,
      before_sha256: beforeSha,
      after_sha256: afterSha,
      diff,
    });
  });
}

export const editTextFileTool: ToolDefinition<typeof editTextFileInput> = {
  name: "EditTextFile",
  description:
    "Create or overwrite one UTF-8 text file using the required path and content arguments. Set append=true only " +
    "when adding content to the end. The same call works whether the target file already exists or not. Use " +
    "ReplaceStringInFile for a small exact replacement in an existing file. Repeating a successful create/overwrite " +
    "call with the same content is treated as success; append calls always append again.",
  inputSchema: editTextFileInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => editTextFile(input, session),
};
