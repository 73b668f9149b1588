// SKILL.md metadata as UCAgent keeps it (runtime/skills/metadata.ts): a mapping whose values all become strings; anything
// else is ignored, with a warning only where UCAgent warns.
import { describe, expect, it } from "vitest";
import { metadataString, stringifyMetadata } from "../../runtime/skills/metadata.js";
import { parseRun as run } from "./helpers.js";

describe("stringifyMetadata", () => {
  const call = (raw: unknown, strict = false) => {
    const warned: string[] = [];
    const result = stringifyMetadata(raw, strict, (kind) => warned.push(kind));
    return { result, warned };
  };

  it("absent or null metadata is an empty mapping without a warning", () => {
    expect(call(undefined)).toEqual({ result: {}, warned: [] });
    expect(call(null, true)).toEqual({ result: {}, warned: [] });
  });

  it("a truthy non-mapping warns with its kind and value; a falsy one warns only in strict mode (UCAgent: `if raw:`)", () => {
    expect(call("text")).toEqual({ result: {}, warned: ['a string ("text")'] });
    expect(call([1])).toEqual({ result: {}, warned: ["a list ([1])"] });
    expect(call(new Map([["a", 1]]))).toEqual({
      result: {},
      warned: ['an ordered mapping (!!omap) ({"a":1})'],
    });
    for (const falsy of ["", [], 0, false, new Set()]) {
      expect(call(falsy).warned).toEqual([]);
      expect(call(falsy, true).warned).toHaveLength(1);
    }
  });

  it("every value of a mapping becomes a string", () => {
    expect(call({ a: 1, b: null, c: ["x"] })).toEqual({ result: { a: "1", b: "", c: '["x"]' }, warned: [] });
  });
});

describe("metadataString", () => {
  it.each([
    ["text", "text"],
    [null, ""],
    [undefined, ""],
    [1.5, "1.5"],
    [false, "false"],
    [new Set(["a", 1]), '["a",1]'],
    [new Map<string, unknown>([["k", true]]), '{"k":true}'],
    [new Uint8Array([104, 105]), "aGk="],
    [{ x: [1] }, '{"x":[1]}'],
  ])("%o → %j", (value, expected) => {
    expect(metadataString(value)).toBe(expected);
  });
});

describe("metadata values become strings (as README says)", () => {
  it("text as it is, null as empty, numbers/booleans read as PyYAML does and printed by JavaScript, collections as JSON", () => {
    const result = run(
      '---\nname: my-skill\ndescription: d\nmetadata:\n  text: "1.0"\n  float: 1.0\n  hex: 0x1F\n  octal: 017\n  bool: True\n  word: yes\n  e: 1e3\n  none: null\n  empty:\n  list:\n    - 1\n    - a\n  map:\n    x: 1\n---\n',
    );
    expect(result.problems).toEqual([]);
    expect(result.parsed?.metadata).toEqual({
      text: "1.0",
      float: "1",
      hex: "31",
      octal: "15",
      bool: "true",
      word: "true",
      e: "1e3",
      none: "",
      empty: "",
      list: '[1,"a"]',
      map: '{"x":1}',
    });
  });
});
