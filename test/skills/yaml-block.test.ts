// The fast frontmatter path must give exactly what the `yaml` package gives, or step aside.

import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadPyYaml } from "../../runtime/skills/pyyaml.js";
import {
  PLAIN_ASCII,
  PLAIN_KEY_LINES,
  parseSimpleLines,
  parseSimpleMapping,
  parseYamlBlock,
} from "../../runtime/skills/yaml-block.js";

const accepted = [
  "name: my-skill\ndescription: Finds bugs in C code.\n",
  "name: my-skill\r\ndescription: CRLF lines\r\n",
  "name: my-skill\ndescription: one CRLF line\r\nlicense: MIT\n",
  "name: x   \r\n   \r\ndescription: trailing spaces, blank lines of spaces\r\n",
  "name: x\nmetadata:\n  a: b\r\n  c: d\r\n",
  "name: x\ndescription: see http://example.com/a#b and C# code\n",
  "name: x\ndescription: \"quoted: with colon\"\nlicense: 'MIT'\n",
  'name: x\ndescription: d\nmetadata:\n  author: me\n  version: "1.0"\n  skillgate-env: HOME,PATH\n',
  "name: x\n\ndescription: blank lines between\n\n",
  "name: données\ndescription: Unicode 😀 text   with  spaces\n",
  "allowed-tools: Read Bash\nname: a\ndescription: b\n",
];
const declined = [
  "name: 123\ndescription: d\n",
  "name: true\ndescription: d\n",
  "name: null\ndescription: d\n",
  "name: ~\n",
  "name: -x\n",
  "name: x\ndescription: a: b\n",
  "name: x # comment\n",
  "# comment\nname: x\n",
  "name: x\ndescription: >\n  folded\n",
  "name: x\ndescription: |\n  literal\n",
  "name: x\nmetadata:\n",
  "name: x\nmetadata:\n  a:\n    b: c\n",
  "name: x\nname: y\n",
  "name: [a]\n",
  "name: {a: b}\n",
  "name: &anchor x\n",
  "name: !tag x\n",
  "name:\tx\n",
  'name: "esc\\n"\n',
  "name: 'it''s'\n",
  "true: x\n",
  "__proto__: x\n",
  "name: x\n  continued\n",
  "- a\n- b\n",
  "just text\n",
  "name: .5\n",
  "name: x:\n",
  "name: a\rb\n",
  "name: x\r\r\n",
  "name: x\ndescription: y\rz\r\n",
  "name\r: x\n",
  "  name: x\n",
  "name: x\n  # comment\n",
  "name: x\nkey\n",
  "name: x\nkey  \nother: y:\n",
];

describe("parseSimpleMapping", () => {
  it.each(accepted)("accepts %j with the same result as yaml", (text) => {
    const fast = parseSimpleMapping(text);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(parse(text));
  });

  it.each(declined)("declines %j (the full parser decides)", (text) => {
    expect(parseSimpleMapping(text)).toBeNull();
  });

  it("agrees with yaml on generated key/value lines whenever it accepts", () => {
    const pieces = [
      "a",
      "b c",
      "x:y",
      "#",
      " #",
      ": ",
      "'",
      '"',
      "-",
      "1",
      "true",
      "é",
      "😀",
      "{",
      "[",
      "%",
      "@",
      "*",
      "&",
      "!",
      "|",
      ">",
      "~",
      ".",
    ];
    let accepted = 0;
    for (const first of pieces) {
      for (const second of pieces) {
        const text = `name: ${first}${second}\ndescription: ${second}${first}z\n`;
        const fast = parseSimpleMapping(text);
        if (fast === null) continue;
        accepted++;
        expect(fast, text).toEqual(parse(text));
      }
    }
    expect(accepted).toBeGreaterThan(30);
  });

  it("agrees with yaml on pseudo-random frontmatter whenever it accepts", () => {
    const alphabet = [
      "a",
      "b",
      " ",
      ":",
      "#",
      "-",
      "'",
      '"',
      "1",
      ".",
      "é",
      "\n",
      "\n  ",
      "x: ",
      "\nk: ",
      "\\",
      "/",
      "?",
      ",",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    let accepted = 0;
    for (let sample = 0; sample < 3000; sample++) {
      let text = "name: ";
      const length = 1 + (next() % 12);
      for (let index = 0; index < length; index++) text += alphabet[next() % alphabet.length] as string;
      text += "\n";
      const fast = parseSimpleMapping(text);
      if (fast === null) continue;
      accepted++;
      let expected: unknown;
      try {
        expected = parse(text);
      } catch (error) {
        expected = error;
      }
      expect(fast, JSON.stringify(text)).toEqual(expected);
    }
    expect(accepted).toBeGreaterThan(100);
  });
});

describe("parseYamlBlock", () => {
  it("reports YAML errors with line and column", () => {
    expect(parseYamlBlock("name: x\ndescription: a: b\n", { uniqueKeys: false })).toEqual({
      ok: false,
      message: "Nested mappings are not allowed in compact mappings",
      line: 2,
      column: 14,
    });
  });

  it("lets the last duplicate key win unless keys must be unique", () => {
    expect(parseYamlBlock("name: x\nname: y\n", { uniqueKeys: false })).toEqual({
      ok: true,
      value: { name: "y" },
    });
    expect(parseYamlBlock("name: x\nname: y\n", { uniqueKeys: true }).ok).toBe(false);
  });
});

/** What a caller sees of a load (the full path also hands back its parsed document). */
function outcome(text: string, fastPath: boolean) {
  const { document: _document, text: _text, ...rest } = loadPyYaml(text, { fastPath });
  return rest;
}

describe("fast path = the PyYAML-faithful full parse (ucagent and lenient mode)", () => {
  const edges = [
    "name: yes\ndescription: d\n",
    "name: No\ndescription: d\n",
    "name: ON\ndescription: off\n",
    "name: y\ndescription: n\n",
    "name: x\ndescription: =\n",
    "name: x\ndescription: <<\n",
    "name: x\ndescription: <b>\n",
    "yes: x\n",
    "name: demo\u00a0\ndescription: d\n",
    "name: x\ndescription: \u00a0text\n",
    "name: demo\u3000\ndescription: d\n",
    "metadata:\n\u00a0a: b\n",
    "name: x\ndescription: a\u2028b\n",
    "name: x\ndescription: a\u0085b\n",
    "name: x\ndescription: 1e3\n",
    "name: x\ndescription: 08\n",
    "name: x\ndescription: 2024-01-31\n",
    "name: x\ndescription: a\ufffeb\n",
    "name: x\ndescription: a\u0080b\n",
    "name: 'x'\ndescription: \"d\"\n",
    ...accepted,
    ...declined,
  ];
  it.each(edges)("gives the same result for %j", (text) => {
    expect(outcome(text, true)).toEqual(outcome(text, false));
  });

  it("agrees on generated lines with YAML 1.1 words and Unicode spaces", () => {
    const pieces = [
      "a",
      "yes",
      "No",
      "on",
      "OFF",
      "y",
      "=",
      "<",
      "<<",
      "\u00a0",
      "\u3000",
      "\u2028",
      " ",
      "1e3",
      "~",
      "é",
    ];
    let fastAccepted = 0;
    for (const first of pieces) {
      for (const second of pieces) {
        const text = `name: ${first}${second}\ndescription: ${second}\nmetadata:\n  k: ${first}\n`;
        if (parseSimpleMapping(text) !== null) fastAccepted++;
        expect(outcome(text, true), JSON.stringify(text)).toEqual(outcome(text, false));
      }
    }
    expect(fastAccepted).toBeGreaterThan(5);
  });
});

describe("PLAIN_KEY_LINES (the one test that spares a KEY test per line)", () => {
  const lines = [
    "name: my-skill",
    "description: Finds bugs: in C code.",
    "metadata:",
    "  author: bench",
    '  version: "1.0"',
    "",
    "   ",
    "key:",
    "foo bar: x",
    "#comment: x",
    " : x",
    "  noColon",
    "9key: x",
    "_k-e_y9: v",
    "k\u00e9y: x",
    "tab:\tx",
    "key: x   ",
    "-key: x",
  ];
  it("passes only plain texts whose every key matches KEY, and the parse is the same with or without it", () => {
    let passed = 0;
    for (const a of lines)
      for (const b of lines)
        for (const c of lines)
          for (const end of ["", "\n"]) {
            const text = `${a}\n${b}\n${c}${end}`;
            const checked = PLAIN_KEY_LINES.test(text);
            if (!checked) continue;
            passed++;
            expect(PLAIN_ASCII.test(text)).toBe(true);
            for (const line of text.split("\n")) {
              if (line.trim() === "") continue;
              expect(line.trimStart()).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*:/);
            }
            expect(parseSimpleLines(text, true)).toEqual(parseSimpleLines(text));
          }
    expect(passed).toBeGreaterThan(1000);
  });
});
