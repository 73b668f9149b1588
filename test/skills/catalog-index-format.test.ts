// The catalog index's JSON shape (runtime/skills/catalog-index-format.ts): a body is served only when every field has
// the type the walker writes, ids are safe and in catalog order; isJsonSafe says which frontmatter survives JSON.
import { describe, expect, it } from "vitest";
import { isJsonSafe, readIndexBody } from "../../runtime/skills/catalog-index-format.js";

const diagnostic = { path: "/r/a/SKILL.md", code: "NAME_MISMATCH", message: "m", severity: "warning" };
const skill = (id: string) => ({
  id,
  name: id.split("/").pop(),
  description: "d",
  metadata: { k: "v" },
  frontmatter: { name: id },
  body: "# b\n",
  scripts: ["run.py"],
  hasHooks: false,
  diagnostics: [diagnostic],
});
const body = () => ({
  root: "/r",
  realRoot: "/r",
  mode: "ucagent",
  maxDepth: 8,
  maxSkills: 10_000,
  paths: ["", "a"],
  digest: "abc",
  skills: [skill("a"), skill("a/b"), skill("a-b")],
  skipped: [{ ...diagnostic, severity: "error" }],
});

describe("readIndexBody", () => {
  it("gives back a well-formed body field for field", () => {
    expect(readIndexBody(body())).toEqual(body());
    expect(readIndexBody({ ...body(), mode: "strict", skills: [], skipped: [] })).not.toBeNull();
  });

  const broken: Array<[string, (value: ReturnType<typeof body>) => unknown]> = [
    ["not an object", () => [body()]],
    ["a class instance", (value) => Object.assign(new (class Body {})(), value)],
    ["an unknown mode", (value) => ({ ...value, mode: "loose" })],
    ["maxDepth as text", (value) => ({ ...value, maxDepth: "8" })],
    ["a path that is not a string", (value) => ({ ...value, paths: ["", 1] })],
    ["digest missing", (value) => ({ ...value, digest: undefined })],
    ["skills out of catalog order", (value) => ({ ...value, skills: [skill("a-b"), skill("a/b")] })],
    ["an id twice", (value) => ({ ...value, skills: [skill("a"), skill("a")] })],
    ["an id escaping with ..", (value) => ({ ...value, skills: [skill("../etc")] })],
    ["an id with a . segment", (value) => ({ ...value, skills: [skill("a/./b")] })],
    ["an absolute id", (value) => ({ ...value, skills: [skill("/a")] })],
    ["an empty segment", (value) => ({ ...value, skills: [skill("a//b")] })],
    ["metadata with a number", (value) => ({ ...value, skills: [{ ...skill("a"), metadata: { k: 1 } }] })],
    ["hasHooks as text", (value) => ({ ...value, skills: [{ ...skill("a"), hasHooks: "no" }] })],
    [
      "a script that is not a string",
      (value) => ({ ...value, skills: [{ ...skill("a"), scripts: [null] }] }),
    ],
    ["a diagnostic with an extra field", (value) => ({ ...value, skipped: [{ ...diagnostic, extra: 1 }] })],
    [
      "a diagnostic of unknown severity",
      (value) => ({ ...value, skipped: [{ ...diagnostic, severity: "info" }] }),
    ],
    [
      "a skill diagnostic missing its message",
      (value) => ({
        ...value,
        skills: [{ ...skill("a"), diagnostics: [{ path: "p", code: "c", severity: "error", other: "" }] }],
      }),
    ],
  ];
  it.each(broken)("refuses %s", (_name, breakIt) => {
    expect(readIndexBody(breakIt(body()))).toBeNull();
  });

  it("accepts ids whose segments only start with dots", () => {
    expect(readIndexBody({ ...body(), skills: [skill("..a"), skill("a/.b")] })).not.toBeNull();
  });
});

describe("isJsonSafe", () => {
  it.each([
    [{ a: [1, "x", true, null, { b: 2.5 }] }, true],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [-0, false],
    [new Set([1]), false],
    [new Map(), false],
    [new Uint8Array(1), false],
    [{ a: [undefined] }, false],
    [{ a: 10n }, false],
  ])("%o → %s", (value, expected) => {
    expect(isJsonSafe(value)).toBe(expected);
  });

  it("refuses nesting deeper than 64 levels instead of recursing without bound", () => {
    const nest = (depth: number) => {
      let value: unknown = "leaf";
      for (let index = 0; index < depth; index++) value = [value];
      return value;
    };
    expect(isJsonSafe(nest(64))).toBe(true);
    expect(isJsonSafe(nest(65))).toBe(false);
  });
});
