// The frontmatter split (runtime/skills/frontmatter.ts): UCAgent's `^---\\s*\\n(.*?)\\n---\\s*\\n` match, checked against
// Python's re on edge inputs, and each way a file fails it, with the exact diagnostic every mode gives.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "../../runtime/skills/frontmatter.js";
import { ok, parseRun as run } from "./helpers.js";

const NO_FM = (first: string) =>
  `error NO_FRONTMATTER: no YAML frontmatter: the first line is ${first}, expected exactly "---"; start SKILL.md with "---", then name: and description:, then a closing "---" line`;

describe("frontmatter split (all modes share the UCAgent rules)", () => {
  const cases: Array<[string, string, string[]]> = [
    ["valid LF", ok, []],
    ["valid CRLF", ok.replace(/\n/g, "\r\n"), []],
    ["trailing spaces after ---", "---  \nname: my-skill\ndescription: Finds bugs.\n---\t\n", []],
    [
      "BOM",
      `\uFEFF${ok}`,
      [
        'error BOM: SKILL.md starts with a UTF-8 byte order mark (BOM), so its first line is not exactly "---"; save the file as UTF-8 without BOM',
      ],
    ],
    [
      "blank first line",
      `\n${ok}`,
      [
        'error BLANK_FIRST_LINE: the first line of SKILL.md is blank; the frontmatter must start on line 1 with exactly "---" — remove the leading blank lines',
      ],
    ],
    ["no frontmatter", "# Title\nname: x\n", [NO_FM('"# Title"')]],
    ["empty file", "", [NO_FM('""')]],
    [
      "no newline after closing ---",
      "---\nname: my-skill\ndescription: Finds bugs.\n---",
      [
        'error CLOSING_NO_NEWLINE: the closing "---" line of the frontmatter has no newline after it; end that line with a newline',
      ],
    ],
    [
      "never closed",
      "---\nname: my-skill\ndescription: Finds bugs.\n",
      [
        'error UNCLOSED_FRONTMATTER: the frontmatter opened with "---" on line 1 is never closed; add a line with exactly "---" after the last field',
      ],
    ],
    [
      "empty block",
      "---\n---\nbody\n",
      [
        'error EMPTY_FRONTMATTER: the frontmatter block is empty; add name: my-skill and description: <what the skill does and when to use it> between the "---" lines',
      ],
    ],
    [
      "blank-only block",
      "---\n\n  \n---\n",
      [
        'error EMPTY_FRONTMATTER: the frontmatter block is empty; add name: my-skill and description: <what the skill does and when to use it> between the "---" lines',
      ],
    ],
    [
      "YAML error (line counted in the file)",
      "---\nname: my-skill\ndescription: [unclosed\n---\n",
      [
        'error YAML_ERROR: invalid YAML in the frontmatter at line 3, column 23: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the YAML syntax (quote values that contain ": " or start with a special character)',
      ],
    ],
    [
      "colon in a plain value is a YAML error in ucagent mode",
      "---\nname: my-skill\ndescription: Use when: reviewing\n---\n",
      [
        'error YAML_ERROR: invalid YAML in the frontmatter at line 3, column 14: Nested mappings are not allowed in compact mappings; fix the YAML syntax (quote values that contain ": " or start with a special character)',
      ],
    ],
    [
      "list instead of mapping",
      "---\n- a\n- b\n---\n",
      [
        'error NOT_A_MAPPING: the frontmatter is a list (["a","b"]), not a mapping of fields; write it as "key: value" lines, e.g. name: my-skill',
      ],
    ],
    [
      "scalar instead of mapping",
      "---\njust text\n---\n",
      [
        'error NOT_A_MAPPING: the frontmatter is a string ("just text"), not a mapping of fields; write it as "key: value" lines, e.g. name: my-skill',
      ],
    ],
  ];
  it.each(cases)("%s", (_label, content, expected) => {
    const result = run(content);
    expect(result.problems).toEqual(expected);
    expect(result.ok).toBe(expected.every((line) => line.startsWith("warning")));
  });

  it("keeps the body after the closing line and accepts CRLF values (read in text mode, as UCAgent)", () => {
    const result = run("---\r\nname: my-skill\r\ndescription: Finds bugs.\r\n---\r\nBody\r\n");
    expect(result.parsed?.description).toBe("Finds bugs.");
    expect(result.parsed?.body).toBe("Body\n");
  });
});

describe("splitFrontmatter = UCAgent's regex (real Python re)", () => {
  const inputs = [
    "---\nname: a\n---\nbody\n",
    "---\n\n\nname: a\n---\n",
    "---\u00a0\u3000\nname: a\n---  \nbody",
    "---\n---\n---\n",
    "---\n\n---\nx: 1\n---\n",
    "--- \u000b\nname: a\n\n---\u000c\n\nbody",
    "---\nname: a\n----\nstill: yaml\n---\n",
    "----\nname: a\n---\n",
    "---\nname: a\n---",
    "---\r\nname: a\r\n---\r\nbody\r\n",
    "---\rname: a\r---\rbody",
    "---\nname: a\n--- trailing\n---\n",
    `---${" \n".repeat(50)}name: a\n---\n`,
    "---\n\u0085name: a\n---\u0085\nrest",
    "---\nname: a\n---\n---\nb: 2\n---\n",
    "",
    "---",
    "---\n",
  ];
  it("finds the same block and body, and fails where Python finds no (or an empty) block", () => {
    const code = [
      "import json, re, sys",
      "out = []",
      "for text in json.load(sys.stdin):",
      "    text = text.replace('\\r\\n', '\\n').replace('\\r', '\\n')",
      "    m = re.match(r'^---\\s*\\n(.*?)\\n---\\s*\\n', text, re.DOTALL)",
      "    out.append([m.group(1), text[m.end():]] if m and m.group(1).strip() else None)",
      "print(json.dumps(out))",
    ].join("\n");
    const expected = JSON.parse(
      execFileSync("python3", ["-c", code], { input: JSON.stringify(inputs), encoding: "utf8" }),
    );
    const actual = inputs.map((text) => {
      const split = splitFrontmatter(text);
      return split.ok ? [split.yaml, split.body] : null;
    });
    expect(actual).toEqual(expected);
    expect(expected.filter((entry: unknown) => entry === null).length).toBeGreaterThan(2);
  });

  it("counts the first YAML line in the file (blank lines after the opening --- are skipped)", () => {
    expect(splitFrontmatter("---\nname: a\n---\n")).toEqual({
      ok: true,
      yaml: "name: a",
      body: "",
      yamlLine: 2,
    });
    const split = splitFrontmatter("---\n\n\nname: a\n---\nbody");
    expect(split.ok && split.yamlLine).toBe(4);
  });

  it.each([
    ["\ufeff---\nname: a\n---\n", "BOM", "\ufeff---"],
    ["  \n---\n", "BLANK_FIRST_LINE", "  "],
    ["# title", "NO_FRONTMATTER", "# title"],
    ["---x\nname: a\n---\n", "NO_FRONTMATTER", "---x"],
    ["---\nname: a\n---", "CLOSING_NO_NEWLINE", "---"],
    ["---\nname: a\n", "UNCLOSED_FRONTMATTER", "---"],
    ["---\n---\n", "EMPTY_FRONTMATTER", "---"],
  ])("%j fails with %s", (text, code, firstLine) => {
    expect(splitFrontmatter(text)).toEqual({ ok: false, code, firstLine });
  });
});
