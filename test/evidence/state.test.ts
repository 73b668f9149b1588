// The evidence state (state.ts): an empty state, absent flags, and merged read ranges.
import { describe, expect, it } from "vitest";
import { emptyState, flagsOf, mergeRanges } from "../../runtime/evidence/index.js";

describe("mergeRanges", () => {
  it.each([
    { input: [], out: [] },
    {
      input: [
        [5, 6],
        [1, 2],
      ],
      out: [
        [1, 2],
        [5, 6],
      ],
    },
    {
      input: [
        [1, 2],
        [3, 4],
      ],
      out: [[1, 4]],
    },
    {
      input: [
        [1, 9],
        [2, 3],
      ],
      out: [[1, 9]],
    },
    {
      input: [
        [4, 4],
        [1, 3],
        [6, 7],
      ],
      out: [
        [1, 4],
        [6, 7],
      ],
    },
  ] as Array<{ input: Array<[number, number]>; out: Array<[number, number]> }>)(
    "$input -> $out",
    ({ input, out }) => {
      expect(mergeRanges(input)).toEqual(out);
    },
  );
});

describe("emptyState and flagsOf", () => {
  it("a new ledger starts at stage 0 with nothing recorded, and each call gives its own object", () => {
    const state = emptyState();
    expect(state).toEqual({
      stageIndex: 0,
      stageName: null,
      finished: false,
      skills: {},
      evidenceVersion: 0,
      check: null,
      usage: null,
      completed: [],
      identity: null,
      binding: null,
      quarantined: [],
      runs: 0,
    });
    state.completed.push({ index: 0, name: "a", evidence: {} });
    expect(emptyState().completed).toEqual([]);
  });

  it("a skill with no record has every flag false and no read range; a recorded one is its own entry", () => {
    const state = emptyState();
    expect(flagsOf(state, "grp/none")).toEqual({
      list: false,
      read: false,
      use: false,
      readRanges: [],
      totalLines: 0,
    });
    state.skills["grp/a"] = { list: true, read: false, use: false, readRanges: [[1, 3]], totalLines: 9 };
    expect(flagsOf(state, "grp/a")).toBe(state.skills["grp/a"]);
    expect(state.skills["grp/none"]).toBeUndefined();
  });
});
