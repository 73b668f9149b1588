// Spec-strict loading (runtime/skills/strict.ts) as skills-ref reads SKILL.md: universal newlines, split("---", 2) and
// strictyaml, checked against real Python and strictyaml; the early-end warning and the exact refusals.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadStrictFrontmatter } from "../../runtime/skills/strict.js";
import { referencePython } from "./reference-python.js";

const inputs = [
  "---\nname: a\ndescription: b\n---\n# Body\n",
  "---\r\nname: a\r\n---\r\n\r\n  body  \r\n",
  "---\rname: a\r---\rbody",
  "---\nname: a\ndescription: x---y\n---\n",
  "---\nname: a\n  ---\nrest\n",
  "---\nname: a\n---",
  "---name: a\n---\n",
  "---\nname: [a]\n---\n",
  "---\n\n---\n",
];

describe("loadStrictFrontmatter = skills-ref's parse", () => {
  it("takes the same frontmatter data and stripped body as Python's split('---', 2) + strictyaml", () => {
    const code = [
      "import json, sys, strictyaml",
      "out = []",
      "for text in json.load(sys.stdin):",
      "    content = text.replace('\\r\\n', '\\n').replace('\\r', '\\n')",
      "    parts = content.split('---', 2)",
      "    try:",
      "        out.append({'value': strictyaml.load(parts[1]).data, 'body': parts[2].strip()})",
      "    except Exception:",
      "        out.append(None)",
      "print(json.dumps(out))",
    ].join("\n");
    const python = referencePython(["strictyaml"]);
    const expected = JSON.parse(
      execFileSync(python, ["-c", code], { input: JSON.stringify(inputs), encoding: "utf8" }),
    );
    const actual = inputs.map((text) => {
      const loaded = loadStrictFrontmatter(text);
      return loaded.ok ? { value: loaded.value, body: loaded.body } : null;
    });
    expect(actual).toEqual(expected);
    expect(expected).toContain(null);
  });

  it("warns when the frontmatter ends at a '---' that is not a line of its own", () => {
    const loaded = loadStrictFrontmatter("---\nname: a\ndescription: x---y\n---\n");
    expect(loaded.ok && loaded.earlyEnd).toBe(
      'the frontmatter ends at the "---" inside line 3 ("description: x---y"), as skills-ref reads up to the first "---" after the opening one; put the closing "---" on a line of its own and keep "---" out of values',
    );
    const clean = loadStrictFrontmatter("---\nname: a\n---  \nbody\n");
    expect(clean.ok && clean.earlyEnd).toBeUndefined();
  });

  it.each([
    [
      "# Title\n---\n",
      "NO_FRONTMATTER",
      'SKILL.md must start with YAML frontmatter ("---"), but starts with "# Title"; start the file with a "---" line',
    ],
    [
      "---\nname: a\n",
      "UNCLOSED_FRONTMATTER",
      'the frontmatter opened with "---" is never closed: no second "---" in the file; add a "---" line after the last field',
    ],
    [
      "---\nname: a\nlist: [x]\n---\n",
      "YAML_ERROR",
      /^invalid YAML in the frontmatter at line 3, column \d+ \(as strictyaml reads the text between the first two "---"\): /,
    ],
  ])("%j is refused with %s", (text, code, message) => {
    const loaded = loadStrictFrontmatter(text);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.code).toBe(code);
    if (typeof message === "string") expect(loaded.message).toBe(message);
    else expect(loaded.message).toMatch(message);
  });
});
