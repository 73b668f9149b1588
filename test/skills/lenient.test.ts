// Lenient-mode repair (runtime/skills/lenient.ts): plain values holding ": " are quoted and the skill loads with a warning;
// a BOM is accepted; what cannot be repaired is still skipped.
import { describe, expect, it } from "vitest";
import { quoteColonValues } from "../../runtime/skills/lenient.js";
import { loadPyYaml } from "../../runtime/skills/pyyaml.js";
import { ok, parseRun as run } from "./helpers.js";

describe("quoteColonValues", () => {
  it('quotes only plain values that contain ": ", keeping indentation, CR and line numbers', () => {
    const yaml = "name: x\r\ndescription: Use when: reviewing  \r\nmetadata:\n  note: a: b\nurl: http://x\n";
    const fixed = quoteColonValues(yaml);
    expect(fixed.yaml).toBe(
      'name: x\r\ndescription: "Use when: reviewing"\r\nmetadata:\n  note: "a: b"\nurl: http://x\n',
    );
    expect(fixed.fixes).toEqual([
      { key: "description", value: "Use when: reviewing", line: 2 },
      { key: "note", value: "a: b", line: 4 },
    ]);
    expect(loadPyYaml(fixed.yaml)).toMatchObject({ ok: true, value: { description: "Use when: reviewing" } });
  });

  it.each([
    ["an already quoted value", "description: 'Use when: x'\n"],
    ["a double-quoted value", 'description: "Use when: x"\n'],
    ["a flow sequence", "tags: [a: b]\n"],
    ["a flow mapping", "tags: {a: b}\n"],
    ["a block scalar indicator", "description: |\n  Use when: x\n"],
    ["an alias or anchor", "a: &x y: z\n"],
    ["a comment line", "# note: a: b\n"],
    ["no colon-space in the value", "url: http://x:8080\n"],
  ])("leaves %s alone", (_name, yaml) => {
    expect(quoteColonValues(yaml)).toEqual({ yaml, fixes: [] });
  });

  it("escapes quotes and backslashes inside the value so the repair is the same string", () => {
    const fixed = quoteColonValues('description: say "hi": now \\ then\n');
    expect(loadPyYaml(fixed.yaml)).toMatchObject({
      ok: true,
      value: { description: 'say "hi": now \\ then' },
    });
  });
});

describe("lenient mode", () => {
  it("accepts a BOM with a warning", () => {
    const result = run(`\uFEFF${ok}`, "lenient");
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([
      "warning BOM_STRIPPED: SKILL.md starts with a UTF-8 byte order mark (BOM); ignored it in lenient mode — save the file without a BOM so other loaders accept it",
    ]);
  });

  it("quotes a plain value containing ': ' and loads the skill with a warning", () => {
    const result = run(
      "---\nname: my-skill\ndescription: Use when: reviewing C code\nmetadata:\n  note: a: b\n---\n",
      "lenient",
    );
    expect(result.ok).toBe(true);
    expect(result.parsed?.description).toBe("Use when: reviewing C code");
    expect(result.parsed?.metadata).toEqual({ note: "a: b" });
    expect(result.problems).toEqual([
      'warning YAML_COLON_QUOTED: value of "description" on line 3 contains ": " and is not valid plain YAML; loaded it as the string "Use when: reviewing C code" — quote it in SKILL.md: description: "Use when: reviewing C code"',
      'warning YAML_COLON_QUOTED: value of "note" on line 5 contains ": " and is not valid plain YAML; loaded it as the string "a: b" — quote it in SKILL.md: note: "a: b"',
    ]);
  });

  it("still skips YAML it cannot repair", () => {
    expect(run("---\nname: my-skill\ndescription: [oops\n---\n", "lenient").problems).toEqual([
      'error YAML_ERROR: invalid YAML in the frontmatter at line 3, column 19: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the YAML syntax (quote values that contain ": " or start with a special character)',
    ]);
  });

  it("turns a YAML alias bomb into a diagnostic instead of throwing", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 8; level++) {
      const previous = String.fromCharCode(96 + level);
      const next = String.fromCharCode(97 + level);
      levels.push(
        `${next}: &${next} [*${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}, *${previous}]`,
      );
    }
    const result = run(`---\nname: my-skill\ndescription: d\n${levels.join("\n")}\n---\n`, "lenient");
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      'error YAML_ERROR: invalid YAML in the frontmatter at line 2, column 1: Excessive alias count indicates a resource exhaustion attack; fix the YAML syntax (quote values that contain ": " or start with a special character)',
    ]);
  });
});
