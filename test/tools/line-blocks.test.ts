// Line blocks of DeleteTextLines / ReplaceStringInFile: validation against the line count, merging, and their text.
import { describe, expect, it } from "vitest";
import { blocksText, lineBlock, normaliseLineBlocks } from "../../runtime/tools/line-blocks.js";

describe("normaliseLineBlocks", () => {
  it.each([
    [[3], 5, [[3, 3]]],
    [
      [1, [2, 2], 4],
      4,
      [
        [1, 2],
        [4, 4],
      ],
    ],
    [
      [
        [4, 5],
        [1, 2],
      ],
      5,
      [
        [1, 2],
        [4, 5],
      ],
    ],
    [
      [
        [1, 3],
        [2, 5],
      ],
      5,
      [[1, 5]],
    ],
    [
      [
        [1, 2],
        [3, 4],
      ],
      4,
      [[1, 4]],
    ],
    [[5, 5, 5], 5, [[5, 5]]],
  ] as const)("%j in a %i-line file merges to %j", (blocks, lines, merged) => {
    expect(normaliseLineBlocks(blocks as never, lines)).toEqual(merged);
  });

  it.each([
    [[[3, 2]], 5, "line block [3, 2] must have start <= end"],
    [[[4, 9]], 4, "line block [4, 9] is out of range for a file with 4 physical lines"],
    [[1], 0, "line block [1, 1] is out of range for a file with 0 physical lines"],
  ] as const)("refuses %j in a %i-line file", (blocks, lines, message) => {
    expect(() => normaliseLineBlocks(blocks as never, lines)).toThrow(message);
  });
});

describe("lineBlock schema and blocksText", () => {
  it("accepts 1-based integers and [start, end] pairs only", () => {
    for (const good of [1, [1, 2]]) expect(lineBlock.safeParse(good).success).toBe(true);
    for (const bad of [0, -1, 1.5, [1], [1, 2, 3], ["1", 2]])
      expect(lineBlock.safeParse(bad).success).toBe(false);
  });

  it("writes ranges as a-b, and single lines as a number when asked", () => {
    expect(
      blocksText(
        [
          [1, 2],
          [4, 4],
        ],
        false,
      ),
    ).toBe("1-2, 4-4");
    expect(
      blocksText(
        [
          [1, 2],
          [4, 4],
        ],
        true,
      ),
    ).toBe("1-2, 4");
  });
});
