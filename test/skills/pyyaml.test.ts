// UCAgent's YAML loader (runtime/skills/pyyaml.ts) against the real PyYAML safe_load: YAML 1.1 scalars read as its
// resolvers read them (then str() as UCAgent lists them), the same refusals, the fast path and the full parse agreeing.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pyStr } from "../../runtime/skills/pystr.js";
import { loadPyYaml, pyIntValue } from "../../runtime/skills/pyyaml.js";
import { referencePython } from "./reference-python.js";

/** python3 with PyYAML: each YAML text → str() of its "v" value, or null when safe_load raises. */
function pyyamlStr(texts: string[]): Array<string | null> {
  const code = [
    "import json, sys, yaml",
    "out = []",
    "for text in json.load(sys.stdin):",
    "    try:",
    "        out.append(str(yaml.safe_load(text)['v']))",
    "    except Exception:",
    "        out.append(None)",
    "print(json.dumps(out))",
  ].join("\n");
  const python = referencePython(["yaml"]);
  return JSON.parse(execFileSync(python, ["-c", code], { input: JSON.stringify(texts), encoding: "utf8" }));
}

function ours(text: string, scalar: string, fastPath: boolean): string | null {
  const loaded = loadPyYaml(text, { fastPath });
  if (!loaded.ok) return null;
  return pyStr((loaded.value as Record<string, unknown>).v, scalar);
}

const scalars = [
  "yes",
  "No",
  "ON",
  "off",
  "y",
  "n",
  "true",
  "TRUE",
  "tRue",
  "1",
  "-0",
  "+7",
  "0x1F",
  "017",
  "08",
  "0b101",
  "1_000",
  "190:20:30",
  "1.0",
  "1e3",
  "1.0e+3",
  "1.0e3",
  ".5",
  "-.inf",
  ".NaN",
  "6.02e+23",
  "1.5:30.5",
  "12345678901234567890",
  "~",
  "null",
  "Null",
  "NULL",
  "",
  "2024-01-01",
  "1:2",
  "0o17",
  "text: more",
  "'quoted'",
  '"esc\\tape"',
  "a # comment",
  "[1, 2]",
  "{a: 1}",
  "!!str 5",
  "!!int '7'",
  "=",
  "&x 1",
  "hello world",
];

describe("loadPyYaml = PyYAML safe_load (then str(), as UCAgent lists values)", () => {
  const texts = scalars.map((scalar) => `v: ${scalar}\n`);
  const expected = pyyamlStr(texts);

  it.each(scalars.map((scalar, index) => [scalar, index] as const))("v: %s", (scalar, index) => {
    const text = texts[index] as string;
    expect(ours(text, scalar, true)).toEqual(expected[index]);
    expect(ours(text, scalar, false)).toEqual(expected[index]);
  });

  const documents = [
    "v: 1\nv: 2\n",
    "v:\n\t- a\n",
    "v: a\tb\n",
    "v: 'a\tb'\n",
    "v: !custom x\n",
    "v: !!python/name:os.system x\n",
    "base: &b {x: 1}\nv:\n  <<: *b\n  y: 2\n",
    "v: x\n---\nw: y\n",
    "v: \u0001\n",
    "v: a\u2028b: c\n",
    "v: |\n  line\n\tkept\n",
    "? [a]\n: b\nv: 1\n",
  ];
  it("gives PyYAML's result or refusal on whole documents (duplicates, tabs, tags, merge keys, streams)", () => {
    const python = pyyamlStr(documents);
    const mine = documents.map((text) => {
      const loaded = loadPyYaml(text, { fastPath: false });
      return loaded.ok ? pyStr((loaded.value as Record<string, unknown>).v) : null;
    });
    expect(mine).toEqual(python);
    expect(python.filter((entry) => entry === null).length).toBeGreaterThan(3);
  });

  it("an error names the line and column of the YAML block", () => {
    const loaded = loadPyYaml("name: a\nv: !custom x\n");
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.line).toBe(2);
      expect(loaded.message).toContain("could not determine a constructor for the tag !custom");
    }
  });
});

describe("pyIntValue = PyYAML's construct_yaml_int, exact at any size", () => {
  it.each([
    ["0", 0n],
    ["-0x1F", -31n],
    ["017", 15n],
    ["0b1_01", 5n],
    ["+1_000", 1000n],
    ["190:20:30", 685230n],
    ["-1:30", -90n],
    ["123456789012345678901234567890", 123456789012345678901234567890n],
  ])("%s = %s", (source, value) => {
    expect(pyIntValue(source)).toBe(value);
  });
});
