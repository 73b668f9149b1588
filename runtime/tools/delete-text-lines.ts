// DeleteTextLines (UCAgent): delete one-based lines or [start, end] blocks of an existing text file, all validated first.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { writeWorkspaceFile } from "../workspace/index.js";
import { sha256Arg } from "./edit-text-file.js";
import { changedSinceRead, diffText, readSnapshot, sha256Hex } from "./file-common.js";
import { blocksText, lineBlock, normaliseLineBlocks } from "./line-blocks.js";
import { splitLines } from "./read-text-file.js";
import { errorResult, okResult } from "./results.js";
import { changedWhilePreparing, editTextUnderLock, missingFileResult } from "./text-edit.js";
import type { Session, ToolDefinition } from "./types.js";

export const deleteTextLinesInput = z
  .object({
    path: z.string().min(1).describe("Existing UTF-8 text file path, relative to the workspace."),
    line_blocks: z
      .array(lineBlock)
      .min(1)
      .max(1000)
      .describe(
        "One-based physical lines to delete. Each item is either one positive line number or a two-number inclusive " +
          "[start, end] block. Example: [1, 4, 5, [10, 20], [40, 55]]. Every item refers to the same original file " +
          "snapshot; lines are not renumbered between items. Overlapping and adjacent blocks are merged. To delete " +
          "only lines 10 through 20, pass [[10, 20]]; [10, 20] means two single-line items in the outer list.",
      ),
    expected_sha256: sha256Arg
      .optional()
      .describe(
        "Optional SHA-256 returned by ReadTextFile. Because line numbers depend on the file snapshot, provide it " +
          "when possible; deletion fails if the file changed.",
      ),
  })
  .strict();

export async function deleteTextLines(
  input: z.infer<typeof deleteTextLinesInput>,
  session: Session,
): Promise<ToolResult> {
  const { path } = input;
  return editTextUnderLock(session, path, async (policy) => {
    const before = await readSnapshot(session, path);
    if (!before) return missingFileResult(path);
    if (input.expected_sha256 !== undefined && input.expected_sha256 !== before.sha256) {
      return changedSinceRead(
        path,
        input.expected_sha256,
        before.sha256,
        "Read it again and recalculate line_blocks.",
      );
    }
    const lines = splitLines(before.text);
    let blocks: [number, number][];
    try {
      blocks = normaliseLineBlocks(input.line_blocks, lines.length);
    } catch (error) {
      return errorResult(
        "INVALID_ARGS",
        `Invalid line_blocks for ${path}: ${(error as Error).message}. No lines were deleted.`,
        { path },
      );
    }
    const kept: string[] = [];
    let cursor = 0;
    for (const [start, end] of blocks) {
      kept.push(...lines.slice(cursor, start - 1));
      cursor = end;
    }
    kept.push(...lines.slice(cursor));
    const after = kept.join("");
    const deleted = blocks.reduce((sum, [start, end]) => sum + end - start + 1, 0);
    const afterSha = sha256Hex(after);
    const diff = diffText(path, before.text, after);
    const changed = await changedWhilePreparing(
      session,
      path,
      before.sha256,
      "line deletion",
      "Read it again and recalculate line_blocks.",
    );
    if (changed) return changed;
    await writeWorkspaceFile(session.paths.root, path, after, { policy: policy.policy, overwrite: true });
    const remaining = lines.length - deleted;
    return okResult(
      `Deleted ${deleted} physical ${deleted === 1 ? "line" : "lines"} from '${path}' in normalized blocks ` +
        `[${blocksText(blocks, true)}]. ${remaining} lines remain. SHA256: ${before.sha256} -> ${afterSha}. Read the ` +
        `updated file, then use ReplaceStringInFile for remaining precise content edits.${diff}`,
      {
        path,
        changed: true,
        deleted_line_count: deleted,
        deleted_line_blocks: blocks.map((block) => [...block]),
        remaining_line_count: remaining,
        before_sha256: before.sha256,
        after_sha256: afterSha,
        diff,
      },
    );
  });
}

export const deleteTextLinesTool: ToolDefinition<typeof deleteTextLinesInput> = {
  name: "DeleteTextLines",
  description:
    "Delete multiple complete, one-based physical lines or inclusive line blocks from one existing UTF-8 text file. " +
    "Use this tool only for large text modifications that remove many obsolete lines. For a small or local edit, use " +
    "ReplaceStringInFile directly. Each line_blocks item is an integer or [start, end], for example [1, 4, 5, [10, " +
    "20], [40, 55]]. All items use the original pre-deletion line numbers. A range must be nested in the outer list: " +
    "use [[10, 20]] for one range; [10, 20] deletes two individual lines. All ranges are validated before writing; " +
    "overlapping or adjacent blocks are merged, and any invalid or out-of-range block cancels the entire operation. " +
    "This tool does not delete files.",
  inputSchema: deleteTextLinesInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => deleteTextLines(input, session),
};
