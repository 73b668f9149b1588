// UCAgent's loader (runtime/skills/ucagent.ts): its frontmatter split, PyYAML safe_load and required-field test, directly
// and as a table of UCAgent's edges in ucagent mode (issue 13).
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { parseSkillFile } from "../../runtime/skills/index.js";
import { loadPyYaml } from "../../runtime/skills/pyyaml.js";
import { loadUcagentFrontmatter, ucagentRequired } from "../../runtime/skills/ucagent.js";
import { tempDir, writeTree } from "./helpers.js";

const FILE = "/skills/demo-skill/SKILL.md";
const D = "Checks demo things.";
const YAML_FIX = '; fix the YAML syntax (quote values that contain ": " or start with a special character)';

interface Expected {
  listed: boolean;
  name?: string;
  description?: string;
  metadata?: Record<string, string>;
  problems: string[];
}

function load(content: string) {
  const result = parseSkillFile(Buffer.from(content, "utf8"), FILE, "ucagent");
  const outcome: Expected = {
    listed: result.ok,
    problems: result.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`),
  };
  if (result.parsed) {
    outcome.name = result.parsed.name;
    outcome.description = result.parsed.description;
    outcome.metadata = result.parsed.metadata;
  }
  return outcome;
}

const listed = (problems: string[] = [], name = "demo-skill", description = D, metadata = {}): Expected => ({
  listed: true,
  name,
  description,
  metadata,
  problems,
});
const skipped = (problem: string): Expected => ({ listed: false, problems: [problem] });

const cases: Array<[string, string, Expected]> = [
  [
    "an empty block with --- on line 2 (that --- opens the YAML)",
    `---\n---\nname: demo-skill\ndescription: ${D}\n---\n`,
    listed(),
  ],
  ["NBSP after the opening ---", `---\u00a0\nname: demo-skill\ndescription: ${D}\n---\n`, listed()],
  [
    "ideographic space after the closing ---",
    `---\nname: demo-skill\ndescription: ${D}\n---\u3000\n`,
    listed(),
  ],
  ["\\v after the opening ---", `---\u000b\nname: demo-skill\ndescription: ${D}\n---\n`, listed()],
  ["\\f after the closing ---", `---\nname: demo-skill\ndescription: ${D}\n---\u000c\n`, listed()],
  ["NEL after the opening ---", `---\u0085\nname: demo-skill\ndescription: ${D}\n---\n`, listed()],
  ["blank lines after the opening ---", `---\n\n\nname: demo-skill\ndescription: ${D}\n---\n`, listed()],
  ["CR-only line endings", `---\rname: demo-skill\rdescription: ${D}\r---\r# Body\r`, listed()],
  [
    "a zero width space (not Python whitespace) after the closing ---",
    `---\nname: demo-skill\ndescription: ${D}\n---\u200b\n`,
    skipped(
      'error UNCLOSED_FRONTMATTER: the frontmatter opened with "---" on line 1 is never closed; add a line with exactly "---" after the last field',
    ),
  ],
  [
    "a whitespace-only name is listed",
    `---\nname: "   "\ndescription: ${D}\n---\n`,
    listed(
      [
        'warning NAME_EMPTY: field "name" is only whitespace ("   "); listed anyway, as UCAgent does — set it to the folder name: name: demo-skill',
      ],
      "   ",
    ),
  ],
  [
    "a whitespace-only description is listed, empty",
    '---\nname: demo-skill\ndescription: "  \\t "\n---\n',
    listed(
      [
        'warning DESCRIPTION_EMPTY: field "description" is only whitespace; listed with an empty description, as UCAgent does — describe what the skill does and when to use it',
      ],
      "demo-skill",
      "",
    ),
  ],
  [
    "str.strip() keeps U+FEFF (JS trim() drops it)",
    '---\nname: demo-skill\ndescription: "\\ufeffwords\\ufeff"\n---\n',
    listed([], "demo-skill", "\ufeffwords\ufeff"),
  ],
  [
    "str.strip() removes U+0085 (JS trim() keeps it)",
    '---\nname: demo-skill\ndescription: "\\x85words\\x85"\n---\n',
    listed([], "demo-skill", "words"),
  ],
  [
    "str.strip() removes U+001C..U+001F",
    '---\nname: demo-skill\ndescription: "\\x1fwords\\x1c"\n---\n',
    listed([], "demo-skill", "words"),
  ],
  [
    'metadata: "" is ignored silently',
    `---\nname: demo-skill\ndescription: ${D}\nmetadata: ""\n---\n`,
    listed(),
  ],
  [
    "metadata: [] is ignored silently",
    `---\nname: demo-skill\ndescription: ${D}\nmetadata: []\n---\n`,
    listed(),
  ],
  [
    "metadata: !!set warns",
    `---\nname: demo-skill\ndescription: ${D}\nmetadata: !!set {a, b}\n---\n`,
    listed([
      'warning METADATA_NOT_MAPPING: field "metadata" is a set (!!set) (["a","b"]), not a mapping; ignored it — write "metadata:" followed by indented "key: value" lines',
    ]),
  ],
  [
    "a tab after a colon is a YAML error",
    `---\nname:\tdemo-skill\ndescription: ${D}\n---\n`,
    skipped(
      `error YAML_ERROR: invalid YAML in the frontmatter at line 2, column 6: found a tab character that cannot start any token; use spaces${YAML_FIX}`,
    ),
  ],
  [
    "an unknown !tag is a YAML error",
    `---\nname: demo-skill\ndescription: !custom ${D}\n---\n`,
    skipped(
      `error YAML_ERROR: invalid YAML in the frontmatter at line 3, column 14: could not determine a constructor for the tag !custom (PyYAML's safe_load builds only standard types); remove the tag${YAML_FIX}`,
    ),
  ],
  [
    "a C1 control character is a YAML error",
    "---\nname: demo-skill\ndescription: a\u0080b\n---\n",
    skipped(
      `error YAML_ERROR: invalid YAML in the frontmatter at line 3, column 15: unacceptable character U+0080: control and special characters are not allowed in YAML (PyYAML refuses them even quoted); remove it${YAML_FIX}`,
    ),
  ],
  [
    "name: no is false, so the skill is skipped",
    `---\nname: no\ndescription: ${D}\n---\n`,
    skipped(
      'error NAME_EMPTY: field "name" is a boolean (false), which UCAgent treats as empty (YAML 1.1 reads yes/no/on/off as booleans: quote the text); set it to the folder name: name: demo-skill',
    ),
  ],
  [
    "name: 1.0 is listed as str(1.0)",
    `---\nname: 1.0\ndescription: ${D}\n---\n`,
    listed(
      [
        `warning NAME_NOT_STRING: field "name" is a number (1), not text; loaded as "1.0" (Python's str(), as UCAgent) — quote it in SKILL.md`,
        'warning NAME_INVALID_CHARS: name "1.0" contains "." (loaded anyway); use only lowercase letters, digits and single hyphens',
        'warning NAME_MISMATCH: name "1.0" does not match the folder name "demo-skill" (compared after NFKC normalisation) (loaded anyway); set name: demo-skill or rename the folder to "1.0"',
      ],
      "1.0",
    ),
  ],
  [
    "a second document marker inside the block",
    `---\nname: demo-skill\ndescription: ${D}\n--- x\n---\n`,
    skipped(
      `error YAML_ERROR: invalid YAML in the frontmatter at line 4, column 1: a "---" or "..." line inside the frontmatter starts a second YAML document (PyYAML expects exactly one); remove that line${YAML_FIX}`,
    ),
  ],
];

describe("ucagent mode at UCAgent's edges", () => {
  it.each(cases)("%s", (_label, content, expected) => {
    expect(load(content)).toEqual(expected);
  });

  it("prints nothing on stderr for an unknown tag (no Node YAMLWarning), through the CLI", async () => {
    const root = writeTree(tempDir(), {
      "demo-skill/SKILL.md": `---\nname: demo-skill\ndescription: !custom ${D}\nmetadata: !other\n  a: b\n---\n`,
    });
    const repo = path.resolve(import.meta.dirname, "../..");
    const run = await execa(
      path.join(repo, "node_modules/.bin/tsx"),
      ["runtime/cli/main.ts", "validate", path.join(root, "demo-skill")],
      {
        cwd: repo,
        reject: false,
        env: { NO_COLOR: "1" },
      },
    );
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("could not determine a constructor for the tag !custom");
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe("loadUcagentFrontmatter", () => {
  const loadIn = (text: string, mode: "ucagent" | "lenient", folder = "demo-skill") => {
    const warnings: string[] = [];
    const loaded = loadUcagentFrontmatter(text, mode, folder, (code, message) =>
      warnings.push(`${code}: ${message}`),
    );
    return { loaded, warnings };
  };

  it("returns the loaded value and the body after the closing line", () => {
    const { loaded, warnings } = loadIn(`---\nname: demo-skill\ndescription: ${D}\n---\n# Body\n`, "ucagent");
    expect(loaded).toMatchObject({
      ok: true,
      value: { name: "demo-skill", description: D },
      body: "# Body\n",
    });
    expect(warnings).toEqual([]);
  });

  it("the empty-block fix names the folder in NFKC form", () => {
    expect(loadIn("---\n---\n", "ucagent", "\ufb01le-tool").loaded).toEqual({
      ok: false,
      code: "EMPTY_FRONTMATTER",
      message:
        'the frontmatter block is empty; add name: file-tool and description: <what the skill does and when to use it> between the "---" lines',
    });
  });

  it("lenient mode retries with quoted values and warns with the line in the file; ucagent mode does not", () => {
    const text = "---\n\nname: demo-skill\ndescription: Use when: x\n---\n";
    expect(loadIn(text, "ucagent").loaded).toMatchObject({ ok: false, code: "YAML_ERROR" });
    const lenient = loadIn(text, "lenient");
    expect(lenient.loaded).toMatchObject({ ok: true, value: { description: "Use when: x" } });
    expect(lenient.warnings).toEqual([
      'YAML_COLON_QUOTED: value of "description" on line 4 contains ": " and is not valid plain YAML; loaded it as the string "Use when: x" — quote it in SKILL.md: description: "Use when: x"',
    ]);
  });
});

describe("ucagentRequired", () => {
  const required = (yaml: string, field: "name" | "description") => {
    const loaded = loadPyYaml(yaml);
    if (!loaded.ok) throw new Error(`bad test YAML: ${loaded.message}`);
    return ucagentRequired(loaded.value as Record<string, unknown>, field, "demo-skill", {
      document: loaded.document,
      yamlText: loaded.text,
    });
  };

  it.each([
    [
      "missing name",
      "description: d\n",
      "name",
      "NAME_MISSING",
      'required field "name" is missing; add name: demo-skill',
    ],
    [
      "missing description",
      "name: a\n",
      "description",
      "DESCRIPTION_MISSING",
      'required field "description" is missing; add description: <what the skill does and when to use it>',
    ],
    [
      "empty name",
      "name: ''\n",
      "name",
      "NAME_EMPTY",
      'field "name" is empty; set it to the folder name: name: demo-skill',
    ],
    [
      "null name",
      "name:\n",
      "name",
      "NAME_EMPTY",
      'field "name" is empty; set it to the folder name: name: demo-skill',
    ],
    [
      "a YAML 1.1 boolean",
      "description: no\n",
      "description",
      "DESCRIPTION_EMPTY",
      'field "description" is a boolean (false), which UCAgent treats as empty (YAML 1.1 reads yes/no/on/off as booleans: quote the text); describe what the skill does and when to use it',
    ],
    [
      "zero",
      "name: 0\n",
      "name",
      "NAME_EMPTY",
      'field "name" is a number (0), which UCAgent treats as empty; set it to the folder name: name: demo-skill',
    ],
  ] as const)("%s is skipped", (_label, yaml, field, code, message) => {
    expect(required(yaml, field)).toEqual({ ok: false, code, message });
  });

  it("a whitespace-only string is listed as it is (UCAgent does not strip)", () => {
    expect(required("name: '  '\n", "name")).toEqual({ ok: true, value: { text: "  " } });
  });

  it("a non-string is listed through Python's str() of the scalar as written", () => {
    expect(required("name: 1.0\n", "name")).toEqual({
      ok: true,
      value: {
        text: "1.0",
        notString:
          'field "name" is a number (1), not text; loaded as "1.0" (Python\'s str(), as UCAgent) — quote it in SKILL.md',
      },
    });
    expect(required("name: 12345678901234567890\n", "name")).toMatchObject({
      ok: true,
      value: { text: "12345678901234567890" },
    });
    expect(required("name: [a, 1]\n", "name")).toMatchObject({ ok: true, value: { text: "['a', 1]" } });
  });
});
