// Table tests for SKILL.md parsing (runtime/skills/validate.ts) in the ucagent, strict and lenient modes, with exact messages.
import { describe, expect, it } from "vitest";
import { parseSkillFile } from "../../runtime/skills/index.js";
import { FILE, parseRun as run } from "./helpers.js";

describe("required fields (skip in ucagent and lenient mode)", () => {
  const cases: Array<[string, string, string[]]> = [
    [
      "name missing",
      "---\ndescription: Finds bugs.\n---\n",
      ['error NAME_MISSING: required field "name" is missing; add name: my-skill'],
    ],
    [
      "name empty",
      '---\nname: ""\ndescription: Finds bugs.\n---\n',
      ['error NAME_EMPTY: field "name" is empty; set it to the folder name: name: my-skill'],
    ],
    [
      "name null",
      "---\nname:\ndescription: Finds bugs.\n---\n",
      ['error NAME_EMPTY: field "name" is empty; set it to the folder name: name: my-skill'],
    ],
    [
      "name false",
      "---\nname: false\ndescription: Finds bugs.\n---\n",
      [
        'error NAME_EMPTY: field "name" is a boolean (false), which UCAgent treats as empty (YAML 1.1 reads yes/no/on/off as booleans: quote the text); set it to the folder name: name: my-skill',
      ],
    ],
    [
      "name 0",
      "---\nname: 0\ndescription: Finds bugs.\n---\n",
      [
        'error NAME_EMPTY: field "name" is a number (0), which UCAgent treats as empty; set it to the folder name: name: my-skill',
      ],
    ],
    [
      "description missing",
      "---\nname: my-skill\n---\n",
      [
        'error DESCRIPTION_MISSING: required field "description" is missing; add description: <what the skill does and when to use it>',
      ],
    ],
    [
      "description empty",
      "---\nname: my-skill\ndescription: ''\n---\n",
      [
        'error DESCRIPTION_EMPTY: field "description" is empty; describe what the skill does and when to use it',
      ],
    ],
    [
      "description an empty list",
      "---\nname: my-skill\ndescription: []\n---\n",
      [
        'error DESCRIPTION_EMPTY: field "description" is a list ([]), which UCAgent treats as empty; describe what the skill does and when to use it',
      ],
    ],
  ];
  for (const mode of ["ucagent", "lenient"] as const) {
    it.each(cases)(`${mode}: %s`, (_label, content, expected) => {
      const result = run(content, mode);
      expect(result.problems).toEqual(expected);
      expect(result.ok).toBe(false);
      expect(result.parsed).toBeUndefined();
    });
  }
});

describe("listed like UCAgent: any truthy name/description through Python's str()", () => {
  const cases: Array<[string, string, string, string, string[]]> = [
    [
      "name blank",
      '---\nname: "   "\ndescription: Finds bugs.\n---\n',
      "   ",
      "Finds bugs.",
      [
        'warning NAME_EMPTY: field "name" is only whitespace ("   "); listed anyway, as UCAgent does — set it to the folder name: name: my-skill',
      ],
    ],
    [
      "name a number",
      "---\nname: 42\ndescription: Finds bugs.\n---\n",
      "42",
      "Finds bugs.",
      [
        `warning NAME_NOT_STRING: field "name" is a number (42), not text; loaded as "42" (Python's str(), as UCAgent) — quote it in SKILL.md`,
        'warning NAME_MISMATCH: name "42" does not match the folder name "my-skill" (compared after NFKC normalisation) (loaded anyway); set name: my-skill or rename the folder to "42"',
      ],
    ],
    [
      "description a list",
      "---\nname: my-skill\ndescription: [a, b]\n---\n",
      "my-skill",
      "['a', 'b']",
      [
        `warning DESCRIPTION_NOT_STRING: field "description" is a list (["a","b"]), not text; loaded as "['a', 'b']" (Python's str(), as UCAgent) — quote it in SKILL.md`,
      ],
    ],
    [
      "description a boolean",
      "---\nname: my-skill\ndescription: yes\n---\n",
      "my-skill",
      "True",
      [
        `warning DESCRIPTION_NOT_STRING: field "description" is a boolean (true), not text; loaded as "True" (Python's str(), as UCAgent) — quote it in SKILL.md`,
      ],
    ],
  ];
  for (const mode of ["ucagent", "lenient"] as const) {
    it.each(cases)(`${mode}: %s`, (_label, content, name, description, expected) => {
      const result = run(content, mode);
      expect(result.problems).toEqual(expected);
      expect(result.ok).toBe(true);
      expect(result.parsed?.name).toBe(name);
      expect(result.parsed?.description).toBe(description);
    });
  }
});

describe("ucagent mode: warn but load", () => {
  it("warns on a name that breaks the spec and differs from the folder", () => {
    const result = run("---\nname: My_Skill\ndescription: Finds bugs.\n---\n");
    expect(result.ok).toBe(true);
    expect(result.parsed?.name).toBe("My_Skill");
    expect(result.problems).toEqual([
      'warning NAME_NOT_LOWERCASE: name "My_Skill" has uppercase letters (loaded anyway); use "my_skill" and rename the folder to match',
      'warning NAME_INVALID_CHARS: name "My_Skill" contains "_" (loaded anyway); use only lowercase letters, digits and single hyphens',
      'warning NAME_MISMATCH: name "My_Skill" does not match the folder name "my-skill" (compared after NFKC normalisation) (loaded anyway); set name: my-skill or rename the folder to "My_Skill"',
    ]);
  });

  it("warns on hyphen rules and length", () => {
    const long = `a${"-b".repeat(40)}`;
    const result = run(`---\nname: -x--y-\ndescription: d\n---\n`, "ucagent", "/s/-x--y-/SKILL.md");
    expect(result.problems).toEqual([
      'warning NAME_HYPHEN_EDGE: name "-x--y-" starts or ends with "-" (loaded anyway); remove the leading or trailing hyphen',
      'warning NAME_DOUBLE_HYPHEN: name "-x--y-" contains "--" (loaded anyway); use single hyphens between words',
    ]);
    const tooLong = run(`---\nname: ${long}\ndescription: d\n---\n`, "ucagent", `/s/${long}/SKILL.md`);
    expect(tooLong.problems).toEqual([
      `warning NAME_TOO_LONG: name "${long}" is 81 characters long, over the limit of 64 (loaded anyway); shorten it and rename the folder to match`,
    ]);
  });

  it("truncates a long description to 1024 code points (an emoji is one character)", () => {
    const description = "😀".repeat(1030);
    const result = run(`---\nname: my-skill\ndescription: "${description}"\n---\n`);
    expect(result.ok).toBe(true);
    expect(Array.from(result.parsed?.description ?? "")).toHaveLength(1024);
    expect(result.parsed?.description).toBe("😀".repeat(1024));
    expect(result.problems).toEqual([
      "warning DESCRIPTION_TOO_LONG: description is 1030 characters long, over the limit of 1024; loaded it truncated to 1024 characters — shorten it and move details into the body",
    ]);
  });

  it("accepts exactly 1024 emoji (2048 UTF-16 units) without a warning", () => {
    const result = run(`---\nname: my-skill\ndescription: "${"😀".repeat(1024)}"\n---\n`);
    expect(result.problems).toEqual([]);
  });

  it("stringifies metadata values", () => {
    const result = run(
      "---\nname: my-skill\ndescription: d\nmetadata:\n  version: 1.0\n  count: 3\n  enabled: true\n  none: null\n  tags: [a, b]\n  nested: {k: v}\n  text: hello\n---\n",
    );
    expect(result.parsed?.metadata).toEqual({
      version: "1",
      count: "3",
      enabled: "true",
      none: "",
      tags: '["a","b"]',
      nested: '{"k":"v"}',
      text: "hello",
    });
    expect(result.problems).toEqual([]);
  });

  it.each([
    ["a list", "[a, b]", 'a list (["a","b"])'],
    ["a string", "hello", 'a string ("hello")'],
    ["a number", "7", "a number (7)"],
  ])("ignores metadata that is %s with a warning", (_label, yaml, shown) => {
    const result = run(`---\nname: my-skill\ndescription: d\nmetadata: ${yaml}\n---\n`);
    expect(result.ok).toBe(true);
    expect(result.parsed?.metadata).toEqual({});
    expect(result.problems).toEqual([
      `warning METADATA_NOT_MAPPING: field "metadata" is ${shown}, not a mapping; ignored it — write "metadata:" followed by indented "key: value" lines`,
    ]);
  });

  it("ignores unknown fields and duplicate keys (last wins, like PyYAML)", () => {
    const result = run("---\nname: my-skill\ndescription: first\ndescription: second\nversion: 2\n---\n");
    expect(result.problems).toEqual([]);
    expect(result.parsed?.description).toBe("second");
  });

  it("skips non-UTF-8 content", () => {
    const bytes = Buffer.concat([
      Buffer.from("---\nname: my-skill\ndescription: caf"),
      Buffer.from([0xe9]),
      Buffer.from("\n---\n"),
    ]);
    expect(run(bytes).problems).toEqual([
      "error NOT_UTF8: SKILL.md is not valid UTF-8 (invalid byte sequence); re-save it with UTF-8 encoding",
    ]);
  });

  it("skips content over 10 MiB", () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x61);
    expect(run(big).problems).toEqual([
      "error TOO_LARGE: SKILL.md is 10485761 bytes, over the 10 MiB limit (10485760 bytes); move long material into references/ and keep SKILL.md short",
    ]);
  });
});

describe("strict mode: the Agent Skills spec as skills-ref applies it", () => {
  it("accepts a spec-clean skill with every allowed field", () => {
    const result = run(
      '---\nname: my-skill\ndescription: d\nlicense: MIT\ncompatibility: "node >= 20"\nmetadata:\n  a: b\nallowed-tools: Read Bash\n---\n',
      "strict",
    );
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("reports every failing field, not just the first", () => {
    const result = run(
      `---\nname: Bad--Name-\ndescription: "${"x".repeat(1025)}"\ncompatibility: "${"c".repeat(501)}"\nallowed-tools:\n  a: b\nversion: 1\nauthor: me\n---\n`,
      "strict",
    );
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      'error UNKNOWN_FIELD: unknown frontmatter field "version" (value "1"); the Agent Skills spec allows only name, description, license, compatibility, metadata, allowed-tools — move it under "metadata:" or remove it',
      'error UNKNOWN_FIELD: unknown frontmatter field "author" (value "me"); the Agent Skills spec allows only name, description, license, compatibility, metadata, allowed-tools — move it under "metadata:" or remove it',
      'error NAME_NOT_LOWERCASE: name "Bad--Name-" has uppercase letters; use "bad--name-" and rename the folder to match',
      'error NAME_HYPHEN_EDGE: name "Bad--Name-" starts or ends with "-"; remove the leading or trailing hyphen',
      'error NAME_DOUBLE_HYPHEN: name "Bad--Name-" contains "--"; use single hyphens between words',
      "error DESCRIPTION_TOO_LONG: description is 1025 characters long, over the limit of 1024; shorten it and move details into the body",
      "error COMPATIBILITY_TOO_LONG: compatibility is 501 characters long, over the limit of 500; shorten it",
      'warning ALLOWED_TOOLS_INVALID: field "allowed-tools" must be a string or a list of strings, got a mapping ({"a":"b"}); write e.g. allowed-tools: "Read Bash"',
      'error NAME_MISMATCH: name "Bad--Name-" does not match the folder name "my-skill" (compared after NFKC normalisation); set name: my-skill or rename the folder to "Bad--Name-"',
    ]);
  });

  // strictyaml reads every scalar as text and refuses flow collections, tags, anchors and duplicate keys.
  const YAML_AT = (where: string, what: string) =>
    `error YAML_ERROR: invalid YAML in the frontmatter at ${where} (as strictyaml reads the text between the first two "---"): ${what}`;
  const FLOW =
    "flow-style collections ([...] or {...}) are not allowed (strictyaml's disallowed JSONesque flow); write a block list or quote the text";
  it.each<[string, string, boolean, string[]]>([
    [
      "name empty value is an empty string",
      "---\nname:\ndescription: d\n---\n",
      false,
      ['error NAME_EMPTY: field "name" is empty; set it to the folder name: name: my-skill'],
    ],
    [
      "name 42 is the text 42",
      "---\nname: 42\ndescription: d\n---\n",
      false,
      [
        'error NAME_MISMATCH: name "42" does not match the folder name "my-skill" (compared after NFKC normalisation); set name: my-skill or rename the folder to "42"',
      ],
    ],
    ["description true is the text true", "---\nname: my-skill\ndescription: true\n---\n", true, []],
    [
      "compatibility 3 is the text 3",
      "---\nname: my-skill\ndescription: d\ncompatibility: 3\n---\n",
      true,
      [],
    ],
    [
      "flow list",
      "---\nname: my-skill\ndescription: [a, b]\n---\n",
      false,
      [YAML_AT("line 3, column 14", FLOW)],
    ],
    [
      "empty flow list in allowed-tools",
      "---\nname: my-skill\ndescription: d\nallowed-tools: []\n---\n",
      false,
      [YAML_AT("line 4, column 16", FLOW)],
    ],
    [
      "flow map in metadata",
      "---\nname: my-skill\ndescription: d\nmetadata: {a: b}\n---\n",
      false,
      [YAML_AT("line 4, column 11", FLOW)],
    ],
    [
      "duplicate key",
      "---\nname: my-skill\ndescription: a\ndescription: b\n---\n",
      false,
      [YAML_AT("line 4, column 1", 'duplicate key "description"; keep one of them')],
    ],
    [
      "tag",
      "---\nname: my-skill\ndescription: d\nlicense: !!str MIT\n---\n",
      false,
      [
        YAML_AT(
          "line 4, column 16",
          "tags (!!str, !name) are not allowed, every value is text; remove the tag",
        ),
      ],
    ],
    [
      "anchor",
      "---\nname: my-skill\ndescription: &d d\n---\n",
      false,
      [YAML_AT("line 3, column 17", "anchors (&name) are not allowed; remove the anchor")],
    ],
    [
      "tab in a plain value",
      "---\nname: my-skill\ndescription: a\tb\n---\n",
      false,
      [YAML_AT("line 3, column 15", "tab character outside a quoted or block scalar or comment; use spaces")],
    ],
    [
      "C1 control character",
      "---\nname: my-skill\ndescription: a\u0080b\n---\n",
      false,
      [
        YAML_AT(
          "line 3, column 15",
          "control or non-character U+0080 is not allowed in YAML; remove it or write it as an escape in a double-quoted string",
        ),
      ],
    ],
    [
      "siblings indented differently",
      "---\nname: my-skill\ndescription: d\nmetadata:\n  a: b\nlicense:\n    c: d\n---\n",
      false,
      [
        YAML_AT(
          "line 7, column 5",
          "this mapping is indented differently from the previous mapping value; indent sibling mappings alike",
        ),
      ],
    ],
    [
      "closing --- inside a value ends the frontmatter",
      "---\nname: my-skill\ndescription: a---b\n---\n",
      true,
      [
        'warning FRONTMATTER_ENDS_EARLY: the frontmatter ends at the "---" inside line 3 ("description: a---b"), as skills-ref reads up to the first "---" after the opening one; put the closing "---" on a line of its own and keep "---" out of values',
      ],
    ],
    [
      "indented closing ---",
      "---\nname: my-skill\ndescription: d\n  ---\n",
      true,
      [
        'warning FRONTMATTER_ENDS_EARLY: the frontmatter ends at the "---" inside line 4 ("  ---"), as skills-ref reads up to the first "---" after the opening one; put the closing "---" on a line of its own and keep "---" out of values',
      ],
    ],
    [
      'opening ---- leaves a "-" in the YAML',
      "----\nname: my-skill\ndescription: d\n---\n",
      false,
      [YAML_AT("line 2, column 1", "Unexpected scalar at node end")],
    ],
    ["CR-only endings", "---\rname: my-skill\rdescription: d\r---\r", true, []],
    [
      "no second ---",
      "---\nname: my-skill\ndescription: d\n",
      false,
      [
        'error UNCLOSED_FRONTMATTER: the frontmatter opened with "---" is never closed: no second "---" in the file; add a "---" line after the last field',
      ],
    ],
  ])("strict YAML: %s", (_label, content, expectedOk, expected) => {
    const result = run(content, "strict");
    expect(result.problems).toEqual(expected);
    expect(result.ok).toBe(expectedOk);
  });

  it("counts code points: 64 emoji-free CJK letters pass, 65 fail; 1024 emoji in a description pass", () => {
    const name64 = "技".repeat(64);
    expect(
      run(
        `---\nname: ${name64}\ndescription: "${"😀".repeat(1024)}"\n---\n`,
        "strict",
        `/s/${name64}/SKILL.md`,
      ).problems,
    ).toEqual([]);
    const name65 = "技".repeat(65);
    expect(
      run(`---\nname: ${name65}\ndescription: d\n---\n`, "strict", `/s/${name65}/SKILL.md`).problems,
    ).toEqual([
      `error NAME_TOO_LONG: name "${name65}" is 65 characters long, over the limit of 64; shorten it and rename the folder to match`,
    ]);
  });

  it.each([
    ["lowercase Unicode letters", "données-été", "données-été", []],
    ["CJK letters and digits", "技能-2", "技能-2", []],
    [
      "uppercase Unicode letter",
      "Été",
      "Été",
      [
        'error NAME_NOT_LOWERCASE: name "Été" has uppercase letters; use "été" and rename the folder to match',
      ],
    ],
    [
      "symbol",
      "a.b",
      "a.b",
      [
        'error NAME_INVALID_CHARS: name "a.b" contains "."; use only lowercase letters, digits and single hyphens',
      ],
    ],
    [
      "emoji",
      "fix-🐛",
      "fix-🐛",
      [
        'error NAME_INVALID_CHARS: name "fix-🐛" contains "🐛"; use only lowercase letters, digits and single hyphens',
      ],
    ],
  ])("names: %s", (_label, name, folder, expected) => {
    expect(
      run(`---\nname: ${name}\ndescription: d\n---\n`, "strict", `/s/${folder}/SKILL.md`).problems,
    ).toEqual(expected);
  });

  it("compares name and folder after NFKC normalisation", () => {
    // "ﬁle" (U+FB01 ligature) normalises to "file"; a decomposed "é" (e + U+0301) composes to "é".
    expect(
      run("---\nname: file-tool\ndescription: d\n---\n", "strict", "/s/ﬁle-tool/SKILL.md").problems,
    ).toEqual([]);
    expect(
      run("---\nname: café\ndescription: d\n---\n", "strict", "/s/cafe\u0301/SKILL.md").problems,
    ).toEqual([]);
    expect(run("---\nname: cafe\ndescription: d\n---\n", "strict", "/s/café/SKILL.md").problems).toEqual([
      'error NAME_MISMATCH: name "cafe" does not match the folder name "café" (compared after NFKC normalisation); set name: café or rename the folder to "cafe"',
    ]);
  });
});

describe("parseSkillFile never throws", () => {
  it("never throws on arbitrary bytes", () => {
    for (let seed = 0; seed < 200; seed++) {
      const bytes = Buffer.from(
        Array.from({ length: 64 }, (_, index) => ((seed * 31 + index * 17) ^ (index * seed)) & 0xff),
      );
      for (const mode of ["ucagent", "strict", "lenient"] as const) {
        expect(() =>
          parseSkillFile(Buffer.concat([Buffer.from("---\n"), bytes, Buffer.from("\n---\n")]), FILE, mode),
        ).not.toThrow();
      }
    }
  });
});
