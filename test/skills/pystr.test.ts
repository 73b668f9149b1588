// Python semantics on loaded frontmatter values (runtime/skills/pystr.ts), checked against a real Python 3: bool(), str(), repr().
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  isPlainMapping,
  pyFloatRepr,
  pyRepr,
  pyStr,
  pyStringRepr,
  pyTruthy,
} from "../../runtime/skills/pystr.js";

/** Runs `code` in python3 with `input` as JSON on stdin; its JSON stdout is the answer. */
function python<T>(code: string, input: unknown): T {
  return JSON.parse(
    execFileSync("python3", ["-c", code], { input: JSON.stringify(input), encoding: "utf8" }),
  ) as T;
}

const floats = [
  0.1,
  1.5,
  -2.25,
  1e16,
  1e15,
  123456789012345.6,
  1e-4,
  1e-5,
  0.00012,
  5e-324,
  1.7976931348623157e308,
  100,
  3,
  -0.5,
  2 ** 53,
];

describe("pyFloatRepr = Python's repr(float)", () => {
  it("matches python3 on every float in the table", () => {
    const expected = python<string[]>(
      "import json,sys; print(json.dumps([repr(float(x)) for x in json.load(sys.stdin)]))",
      floats,
    );
    expect(floats.map(pyFloatRepr)).toEqual(expected);
  });

  it("spells the values JSON cannot carry", () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0].map(pyFloatRepr)).toEqual([
      "nan",
      "inf",
      "-inf",
      "0.0",
      "-0.0",
    ]);
  });
});

describe("pyStringRepr = Python's repr(str)", () => {
  const strings = [
    "plain",
    "it's",
    'say "hi"',
    `both ' and "`,
    "back\\slash",
    "tab\tnew\nline\r",
    "\x00\x7f\x85",
    "\u200b\u2028",
    "\u{1f600} ok",
    "\u{e0001}",
    "nbsp\xa0",
    "é",
  ];
  it("matches python3 on quotes, escapes and non-printable characters", () => {
    const expected = python<string[]>(
      "import json,sys; print(json.dumps([repr(s) for s in json.load(sys.stdin)]))",
      strings,
    );
    expect(strings.map(pyStringRepr)).toEqual(expected);
  });
});

describe("pyRepr and pyStr of containers = Python's str()", () => {
  const values: unknown[] = [null, true, false, "x", [1, "a", null], { k: [true], "it's": 1.5 }, [], {}];
  it("matches python3's str() of the same JSON values", () => {
    const expected = python<string[]>(
      "import json,sys; print(json.dumps([str(v) for v in json.load(sys.stdin)]))",
      values,
    );
    expect(values.map((value) => pyStr(value))).toEqual(expected);
  });

  it("sets, ordered mappings (a list of tuples in PyYAML) and bytes", () => {
    expect(pyRepr(new Set())).toBe("set()");
    expect(pyRepr(new Set([1, "a"]))).toBe("{1, 'a'}");
    expect(
      pyRepr(
        new Map<string, unknown>([
          ["a", 1],
          ["b", null],
        ]),
      ),
    ).toBe("[('a', 1), ('b', None)]");
    expect(pyRepr(new Uint8Array([0x61, 0x27, 0x5c, 0x00, 0xff]))).toBe("b'a\\'\\\\\\x00\\xff'");
  });

  it("str() of a number keeps what the source says: int, float, big int", () => {
    expect(pyStr(1, "1.0")).toBe("1.0");
    expect(pyStr(1, "1")).toBe("1");
    expect(pyStr(31, "0x1F")).toBe("31");
    expect(pyStr(2 ** 64, "18446744073709551617")).toBe("18446744073709551617");
    expect(pyStr(1000, "1e3")).toBe("1000");
    expect(pyStr(0.5)).toBe("0.5");
  });
});

describe("pyTruthy = Python's bool()", () => {
  it.each([
    [null, false],
    [undefined, false],
    [0, false],
    [Number.NaN, true],
    ["", false],
    [" ", true],
    [[], false],
    [[0], true],
    [{}, false],
    [{ a: 0 }, true],
    [new Set(), false],
    [new Map([["a", 1]]), true],
    [new Uint8Array(0), false],
    [false, false],
    [true, true],
  ])("bool(%o) is %s", (value, expected) => {
    expect(pyTruthy(value)).toBe(expected);
  });

  it("isPlainMapping: a dict, not a list, set, ordered map or bytes", () => {
    expect([{}, Object.create(null), { a: 1 }].map(isPlainMapping)).toEqual([true, true, true]);
    expect([[], new Set(), new Map(), new Uint8Array(1), null, "x", new Date(0)].map(isPlainMapping)).toEqual(
      Array(7).fill(false),
    );
  });
});
