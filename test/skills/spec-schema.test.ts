// The Agent Skills spec schema (runtime/skills/spec-schema.ts): checkSpecRules names each broken rule once, its fast path
// agrees with the validator, and the build's ajv standalone validator reports exactly what the compiled schema reports.
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import {
  checkSpecRules,
  SKILL_FRONTMATTER_SCHEMA,
  SPEC_AJV_OPTIONS,
  type SpecProblem,
} from "../../runtime/skills/spec-schema.js";

/** What scripts/build-spec-validator.mjs writes, evaluated as the CommonJS module it is. */
function standaloneValidator(): ValidateFunction {
  const ajv = new Ajv({ ...SPEC_AJV_OPTIONS, code: { source: true } });
  const source = standaloneCode.default(ajv, ajv.compile(SKILL_FRONTMATTER_SCHEMA));
  const module = { exports: {} as unknown };
  const load = new Function("module", "exports", "require", source);
  load(module, module.exports, createRequire(import.meta.url));
  return module.exports as ValidateFunction;
}

const long = (n: number) => "a".repeat(n);
const cases: Array<[string, Record<string, unknown>]> = [
  ["valid", { name: "my-skill", description: "Finds bugs." }],
  ["every field", { name: "a", description: "d", license: "MIT", compatibility: "x", metadata: { a: 1 } }],
  ["allowed-tools string", { name: "a", description: "d", "allowed-tools": "Read Bash" }],
  ["allowed-tools list", { name: "a", description: "d", "allowed-tools": ["Read", "Bash"] }],
  ["allowed-tools bad", { name: "a", description: "d", "allowed-tools": [1] }],
  ["missing name", { description: "d" }],
  ["missing both", {}],
  ["name not a string", { name: 3, description: "d" }],
  ["name empty", { name: "", description: "d" }],
  ["name 64", { name: long(64), description: "d" }],
  ["name 65", { name: long(65), description: "d" }],
  ["name of emoji counts code points", { name: "😀".repeat(64), description: "d" }],
  ["uppercase", { name: "Bad_Name", description: "d" }],
  ["leading hyphen", { name: "-a", description: "d" }],
  ["trailing hyphen", { name: "a-", description: "d" }],
  ["double hyphen", { name: "a--b", description: "d" }],
  ["unicode letters", { name: "café-été", description: "d" }],
  ["invalid chars", { name: "a b.c", description: "d" }],
  ["description not a string", { name: "a", description: ["x"] }],
  ["description blank", { name: "a", description: "  \n" }],
  ["description 1025", { name: "a", description: long(1025) }],
  ["compatibility not a string", { name: "a", description: "d", compatibility: 3 }],
  ["compatibility 501", { name: "a", description: "d", compatibility: long(501) }],
  ["unknown fields", { name: "a", description: "d", version: "1", author: "x" }],
  ["many problems at once", { name: "-Bad--Name-", description: "", extra: true, compatibility: [] }],
];

describe("ajv standalone spec validator", () => {
  const compiled = new Ajv(SPEC_AJV_OPTIONS).compile(SKILL_FRONTMATTER_SCHEMA);
  const standalone = standaloneValidator();
  it.each(cases)("%s: same verdict and errors as the compiled schema", (_name, frontmatter) => {
    const expected = compiled(frontmatter);
    const expectedErrors = structuredClone(compiled.errors ?? []);
    expect(standalone(frontmatter)).toBe(expected);
    expect(standalone.errors ?? []).toEqual(expectedErrors);
  });
  it("the table exercises both verdicts", () => {
    const verdicts = new Set(cases.map(([, frontmatter]) => compiled(frontmatter)));
    expect([...verdicts].sort()).toEqual([false, true]);
  });
});

describe("checkSpecRules", () => {
  const compiled = new Ajv(SPEC_AJV_OPTIONS).compile(SKILL_FRONTMATTER_SCHEMA);
  it.each(cases)(
    "%s: no problems exactly when the schema passes (fast path or not)",
    (_name, frontmatter) => {
      expect(checkSpecRules(frontmatter).length === 0).toBe(compiled(frontmatter));
    },
  );

  const problems: Array<[string, Record<string, unknown>, SpecProblem[]]> = [
    [
      "missing both",
      {},
      [
        { rule: "NAME_MISSING", field: "name" },
        { rule: "DESCRIPTION_MISSING", field: "description" },
      ],
    ],
    ["name 65", { name: long(65), description: "d" }, [{ rule: "NAME_TOO_LONG", field: "name" }]],
    [
      "64 astral letters are 64 code points, not 128 units",
      { name: "\u{1d4b6}".repeat(64), description: "d" },
      [],
    ],
    [
      "65 astral letters are too long",
      { name: "\u{1d4b6}".repeat(65), description: "d" },
      [{ rule: "NAME_TOO_LONG", field: "name" }],
    ],
    [
      "uppercase with an underscore",
      { name: "Bad_Name", description: "d" },
      [
        { rule: "NAME_NOT_LOWERCASE", field: "name" },
        { rule: "NAME_INVALID_CHARS", field: "name" },
      ],
    ],
    [
      "blank description (Python whitespace)",
      { name: "a", description: " \u0085\n" },
      [{ rule: "DESCRIPTION_EMPTY", field: "description" }],
    ],
    ["U+FEFF is text to Python", { name: "a", description: "\ufeff" }, []],
    [
      "each broken rule once (unknown fields first, as ajv reports them)",
      { name: "-Bad--Name-", description: "", extra: true, compatibility: [] },
      [
        { rule: "UNKNOWN_FIELD", field: "extra" },
        { rule: "NAME_NOT_LOWERCASE", field: "name" },
        { rule: "NAME_HYPHEN_EDGE", field: "name" },
        { rule: "NAME_DOUBLE_HYPHEN", field: "name" },
        { rule: "DESCRIPTION_EMPTY", field: "description" },
        { rule: "COMPATIBILITY_NOT_STRING", field: "compatibility" },
      ],
    ],
    [
      "allowed-tools of numbers",
      { name: "a", description: "d", "allowed-tools": [1, 2] },
      [{ rule: "ALLOWED_TOOLS_INVALID", field: "allowed-tools" }],
    ],
  ];
  it.each(problems)("%s", (_name, frontmatter, expected) => {
    expect(checkSpecRules(frontmatter)).toEqual(expected);
  });
});
