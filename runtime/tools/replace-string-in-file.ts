// ReplaceStringInFile (UCAgent): replace one unique exact occurrence in an existing text file, optionally within line blocks.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { writeWorkspaceFile } from "../workspace/index.js";
import { sha256Arg } from "./edit-text-file.js";
import { changedSinceRead, convertNewlines, diffText, readSnapshot, sha256Hex } from "./file-common.js";
import { blocksText, lineRange, normaliseLineBlocks } from "./line-blocks.js";
import { splitLines } from "./read-text-file.js";
import { errorResult, okResult } from "./results.js";
import { changedWhilePreparing, editTextUnderLock, missingFileResult } from "./text-edit.js";
import type { Session, ToolDefinition } from "./types.js";

export const replaceStringInFileInput = z
  .object({
    path: z.string().min(1).describe("Text file path to modify, relative to the workspace."),
    old_string: z
      .string()
      .min(1)
      .describe(
        "Non-empty exact literal text to replace in an existing file, including enough context to make the match unique.",
      ),
    new_string: z
      .string()
      .describe(
        "The exact literal text to replace old_string with. Ensure the resulting code is correct and idiomatic.",
      ),
    line_blocks: z
      .array(lineRange)
      .min(1)
      .max(1000)
      .optional()
      .describe(
        "Optional one-based inclusive search blocks. Use [[start, end]] for one block or [[start1, end1], [start2, " +
          "end2]] for multiple blocks; do not pass [start, end]. Omit for the whole file.",
      ),
    expected_sha256: sha256Arg
      .optional()
      .describe(
        "Optional SHA-256 returned by ReadTextFile. The replacement fails if the file changed since it was read.",
      ),
    dry_run: z
      .boolean()
      .default(false)
      .describe("Validate the replacement and return its diff without writing the file."),
  })
  .strict();

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count += 1;
  return count;
}

export async function replaceStringInFile(
  input: z.infer<typeof replaceStringInFileInput>,
  session: Session,
): Promise<ToolResult> {
  const { path } = input;
  return editTextUnderLock(session, path, async (policy) => {
    const before = await readSnapshot(session, path);
    if (!before) return missingFileResult(path);
    if (input.expected_sha256 !== undefined && input.expected_sha256 !== before.sha256) {
      return changedSinceRead(path, input.expected_sha256, before.sha256);
    }
    const original = before.text;
    const oldText = convertNewlines(input.old_string, before.newline);
    const newText = convertNewlines(input.new_string, before.newline);
    let ranges: [number, number][] = [[0, original.length]];
    let blocks: [number, number][] | null = null;
    if (input.line_blocks) {
      const lines = splitLines(original);
      try {
        blocks = normaliseLineBlocks(input.line_blocks, lines.length);
      } catch (error) {
        return errorResult(
          "INVALID_ARGS",
          `Invalid line_blocks for ${path}: ${(error as Error).message}. No replacement was made.`,
          { path },
        );
      }
      const offsets = [0];
      for (const line of lines) offsets.push(offsets.at(-1)! + line.length);
      ranges = blocks.map(([start, end]) => [offsets[start - 1]!, offsets[end]!]);
    }
    let occurrences = 0;
    let matchAt: number | null = null;
    for (const [from, to] of ranges) {
      const selected = original.slice(from, to);
      const found = countOccurrences(selected, oldText);
      occurrences += found;
      if (found > 0 && matchAt === null) matchAt = from + selected.indexOf(oldText);
    }
    const scope = blocks ? `line_blocks [${blocksText(blocks, false)}]` : "the whole file";
    if (occurrences === 0) {
      return errorResult(
        "MATCH_NOT_FOUND",
        `The specified old_string was not found in ${scope}. Read the current file and retry with exact, unique ` +
          "text; if the desired content is already present, no further write is needed.",
        { path, occurrences: 0 },
      );
    }
    if (occurrences > 1) {
      return errorResult(
        "MATCH_NOT_UNIQUE",
        `The specified old_string appears ${occurrences} times in ${scope}. Narrow line_blocks or include more ` +
          "surrounding context so it matches exactly once.",
        { path, occurrences },
      );
    }
    const at = matchAt!;
    const after = original.slice(0, at) + newText + original.slice(at + oldText.length);
    const lineBlocks = blocks ? blocks.map((block) => [...block]) : null;
    if (after === original) {
      return okResult(
        `File '${path}' already has the requested content; no write was needed. SHA256: ${before.sha256}.`,
        {
          path,
          changed: false,
          line_blocks: lineBlocks,
          before_sha256: before.sha256,
          after_sha256: before.sha256,
        },
      );
    }
    const diff = diffText(path, original, after);
    const afterSha = sha256Hex(after);
    if (input.dry_run) {
      return okResult(
        `Dry run successful for ${path}. SHA256 would change from ${before.sha256} to ${afterSha}.${diff}`,
        {
          path,
          changed: false,
          dry_run: true,
          line_blocks: lineBlocks,
          before_sha256: before.sha256,
          after_sha256: afterSha,
          diff,
        },
      );
    }
    if (input.expected_sha256 !== undefined) {
      const changed = await changedWhilePreparing(session, path, before.sha256, "the replacement");
      if (changed) return changed;
    }
    await writeWorkspaceFile(session.paths.root, path, after, { policy: policy.policy, overwrite: true });
    const within = blocks ? ` within ${scope}` : "";
    return okResult(
      `Successfully replaced 1 occurrence of the specified string in ${path}${within}. SHA256: ${before.sha256} -> ${afterSha}.${diff}`,
      {
        path,
        changed: true,
        dry_run: false,
        line_blocks: lineBlocks,
        before_sha256: before.sha256,
        after_sha256: afterSha,
        diff,
      },
    );
  });
}

export const replaceStringInFileTool: ToolDefinition<typeof replaceStringInFileInput> = {
  name: "ReplaceStringInFile",
  description:
    "Replace one unique occurrence of non-empty old_string in an existing UTF-8 text file. Both old_string and " +
    "new_string must match the intended whitespace and newlines exactly. Include enough surrounding context to make " +
    "old_string unique. Optionally pass one-based inclusive line_blocks: use [[10, 20]] for one block or [[10, 20], " +
    "[40, 50]] for multiple blocks; do not pass [10, 20]. Omit line_blocks to search the whole file. Overlapping or " +
    "adjacent blocks are merged, and the match must fit fully inside one normalized block. Use EditTextFile to " +
    "create, overwrite, or append to a file. Repeating an already-applied replacement is reported as an actionable " +
    "mismatch; calling with identical old_string and new_string is treated as success.",
  inputSchema: replaceStringInFileInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => replaceStringInFile(input, session),
};
