// Line blocks of DeleteTextLines / ReplaceStringInFile: one-based lines or inclusive [start, end] pairs, validated and merged.
import { z } from "zod";

const lineNumber = z.number().int().min(1);
export const lineRange = z.tuple([lineNumber, lineNumber]);
export const lineBlock = z.union([lineNumber, lineRange]);

export type LineBlock = z.infer<typeof lineBlock>;

/** Validates every block against the file's line count and merges overlapping or adjacent ones (UCAgent's rules). */
export function normaliseLineBlocks(blocks: LineBlock[], lineCount: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (const block of blocks) {
    const [start, end] = typeof block === "number" ? [block, block] : block;
    if (start > end) throw new Error(`line block [${start}, ${end}] must have start <= end`);
    if (end > lineCount) {
      throw new Error(
        `line block [${start}, ${end}] is out of range for a file with ${lineCount} physical lines`,
      );
    }
    ranges.push([start, end]);
  }
  const merged: [number, number][] = [];
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const last = merged.at(-1);
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export function blocksText(blocks: [number, number][], singles: boolean): string {
  return blocks
    .map(([start, end]) => (singles && start === end ? String(start) : `${start}-${end}`))
    .join(", ");
}
