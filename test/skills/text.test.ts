// Text helpers of skill validation (runtime/skills/text.ts): code points, not UTF-16 units; Python's whitespace; values in messages.
import { describe, expect, it } from "vitest";
import {
  codePointLength,
  compareCodePoints,
  describeValue,
  isPySpace,
  isPySpaceCode,
  kindOf,
  PY_SPACE_CLASS,
  pyStrip,
  showValue,
  sortCodePoints,
  truncateCodePoints,
} from "../../runtime/skills/text.js";

describe("code points", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["😀", 1],
    ["a😀b", 3],
    ["\ud83d", 1],
    ["\ude00\ud83d", 2],
  ])("codePointLength(%j) = %i", (text, length) => {
    expect(codePointLength(text)).toBe(length);
  });

  it("truncates by code point and never splits a surrogate pair", () => {
    expect(truncateCodePoints("😀😀😀", 2)).toBe("😀😀");
    expect(truncateCodePoints("abc", 3)).toBe("abc");
    expect(truncateCodePoints("a😀", 1)).toBe("a");
  });

  it("orders astral characters after U+E000..U+FFFF, as Python compares str", () => {
    const sorted = ["\u{1f600}", "\uffff", "\ue000", "z", "a", "ab"].sort(compareCodePoints);
    expect(sorted).toEqual(["a", "ab", "z", "\ue000", "\uffff", "\u{1f600}"]);
    expect(compareCodePoints("same", "same")).toBe(0);
    expect(Math.sign(compareCodePoints("a", "ab"))).toBe(-1);
  });

  it("sortCodePoints gives compareCodePoints' order, with and without surrogates in the names", () => {
    const lists = [
      ["skill-0-0-10", "skill-0-0-3", "scripts", "Skill", "a-b", "a", "ab", "\u00e9", "\uffff", "\ue000"],
      ["x\u{1f600}", "x\uffff", "x\ue000", "xz", "\ud83d", "x", "y\ud800"],
      ["b", "a"],
      [],
    ];
    for (const names of lists) {
      const expected = [...names].sort(compareCodePoints);
      const input = [...names];
      expect(sortCodePoints(input)).toBe(input);
      expect(input).toEqual(expected);
    }
  });
});

describe("Python whitespace", () => {
  it.each([
    ["\t", true],
    ["\x1c", true],
    ["\x85", true],
    ["\xa0", true],
    ["\u3000", true],
    ["\u2028", true],
    ["\ufeff", false],
    ["\u200b", false],
    ["a", false],
  ])("isPySpace(%j) = %s", (char, expected) => {
    expect(isPySpace(char)).toBe(expected);
  });

  it("isPySpaceCode agrees with PY_SPACE_CLASS (the class the spec schema uses) on every UTF-16 unit", () => {
    const pattern = new RegExp(`^[${PY_SPACE_CLASS}]$`);
    const disagree: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      if (isPySpaceCode(unit) !== pattern.test(String.fromCharCode(unit))) disagree.push(unit);
    }
    expect(disagree).toEqual([]);
    expect(isPySpace("")).toBe(false);
    expect(isPySpace("\u{1f600}")).toBe(false);
  });

  it("pyStrip removes Python's whitespace (U+0085, U+001C) and keeps U+FEFF, unlike trim()", () => {
    expect(pyStrip("\x85\x1c x \u3000")).toBe("x");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx");
    expect("\ufeffx".trim()).toBe("x");
    expect(pyStrip("   ")).toBe("");
    const text = "unchanged";
    expect(pyStrip(text)).toBe(text);
  });
});

describe("values in messages", () => {
  it.each([
    [null, "null", "null"],
    [[1, 2], "a list", "a list ([1,2])"],
    [new Set(["a"]), "a set (!!set)", 'a set (!!set) (["a"])'],
    [new Map([["k", 1]]), "an ordered mapping (!!omap)", 'an ordered mapping (!!omap) ({"k":1})'],
    [new Uint8Array([1]), "binary data (!!binary)", 'binary data (!!binary) ({"0":1})'],
    [{ a: 1 }, "a mapping", 'a mapping ({"a":1})'],
    ["x", "a string", 'a string ("x")'],
    [true, "a boolean", "a boolean (true)"],
    [Number.POSITIVE_INFINITY, "a number", "a number (Infinity)"],
    [Number.NaN, "a number", "a number (NaN)"],
  ])("%o is %s", (value, kind, described) => {
    expect(kindOf(value)).toBe(kind);
    expect(describeValue(value)).toBe(described);
  });

  it("cuts a long value to 80 characters so one field cannot flood a message", () => {
    const shown = showValue("x".repeat(500));
    expect(shown).toHaveLength(80);
    expect(shown.endsWith("...")).toBe(true);
  });

  it("shows a value JSON cannot hold (a bigint, a cycle) through String()", () => {
    expect(showValue(10n)).toBe("10");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(showValue(cycle)).toBe("[object Object]");
  });
});
