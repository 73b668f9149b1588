// skills-ref's YAML loader (runtime/skills/strictyaml.ts) against the real strictyaml: block YAML only, every scalar a
// string, the same refusals; badTabOffset finds tabs where ruamel's scanner refuses them.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { badTabOffset, loadStrictYaml } from "../../runtime/skills/strictyaml.js";
import { referencePython } from "./reference-python.js";

/** strictyaml.load(text).data as JSON, or null when strictyaml raises. */
function strictyamlData(texts: string[]): unknown[] {
  const code = [
    "import json, sys, strictyaml",
    "out = []",
    "for text in json.load(sys.stdin):",
    "    try:",
    "        out.append({'data': strictyaml.load(text).data})",
    "    except Exception:",
    "        out.append(None)",
    "print(json.dumps(out))",
  ].join("\n");
  const python = referencePython(["strictyaml"]);
  return JSON.parse(execFileSync(python, ["-c", code], { input: JSON.stringify(texts), encoding: "utf8" }));
}

const texts = [
  "name: a\ndescription: b\n",
  "n: 1\nb: yes\nz: null\nf: 1.5\n",
  "list:\n  - a\n  - 2\n",
  "nested:\n  k: v\n  deep:\n    x: y\n",
  "flow: [a, b]\n",
  "flow: {a: b}\n",
  "tagged: !!str x\n",
  "anchor: &a x\nalias: *a\n",
  "dup: 1\ndup: 2\n",
  "just a scalar\n",
  "",
  "quoted: 'a: b'\ndq: \"x\\ty\"\n",
  "block: |\n  line one\n  line two\n",
  "folded: >\n  a\n  b\n",
  "tab:\tx\n",
  "m:\n  a: 1\n   b: 2\n",
  "comment: x # note\n",
  "ctrl: \u0007\n",
  "empty:\n",
];

describe("loadStrictYaml = strictyaml.load(...).data", () => {
  it("gives strictyaml's data (all strings) or its refusal on every text of the table", () => {
    const expected = strictyamlData(texts);
    const actual = texts.map((text) => {
      const loaded = loadStrictYaml(text);
      return loaded.ok ? { data: loaded.value } : null;
    });
    expect(actual).toEqual(expected);
    expect(expected.filter((entry) => entry === null).length).toBeGreaterThan(4);
    expect(expected.filter((entry) => entry !== null).length).toBeGreaterThan(4);
  });

  it("names the code point, line and column of a control character", () => {
    expect(loadStrictYaml("a: b\nc: d\u0007\n")).toEqual({
      ok: false,
      message:
        "control or non-character U+0007 is not allowed in YAML; remove it or write it as an escape in a double-quoted string",
      line: 2,
      column: 5,
    });
  });
});

describe("badTabOffset", () => {
  it.each([
    ["no tab", "a: b\n", null],
    ["a tab after the colon", "a:\tb\n", 2],
    ["a tab as indentation", "a:\n\t- b\n", 3],
    ["a tab in a plain value", "a: x\ty\n", 4],
    ["a tab in single quotes", "a: 'x\ty'\n", null],
    ["a tab in double quotes", 'a: "x\ty"\n', null],
    ["a tab in a comment", "a: b # x\ty\n", null],
    ["a tab inside block scalar content", "a: |\n  x\ty\n", null],
    ["a tab as block scalar indentation", "a: |\n\tx\n", 5],
  ])("%s", (_name, text, offset) => {
    expect(badTabOffset(text)).toBe(offset);
  });
});
