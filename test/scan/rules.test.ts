// runtime/scan/rules.ts: rules-file validation (every problem with its key path and rule id) and loadRules errors naming the file and the fix.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { scanText } from "../../runtime/scan/index.js";
import { defaultRulesFile, loadRules, parseRules } from "../../runtime/scan/rules.js";
import { removeTree, tempRoot } from "../support/workspace.js";

const ok = "{id: py.a, pattern: x, languages: [python], severity: low, message: m}";
const withRules = (...rules: string[]): string =>
  `version: 1\nrules:\n${rules.map((rule) => `  - ${rule}\n`).join("")}`;

const PROBLEMS: Array<[name: string, text: string, problems: string[]]> = [
  [
    "YAML syntax error",
    "version: 1\nrules: [\n",
    [
      "YAML error at line 3, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ],
  ],
  [
    "duplicate YAML key",
    "version: 1\nversion: 2\nrules: []\n",
    ["YAML error at line 2, column 1: Map keys must be unique"],
  ],
  [
    "not a mapping",
    "- a\n- b\n",
    ["(top level): the file must be a mapping with `version: 1` and `rules: [...]`, got a list"],
  ],
  [
    "empty file",
    "",
    ["(top level): the file must be a mapping with `version: 1` and `rules: [...]`, got nothing"],
  ],
  ["wrong version", `version: 2\nrules:\n  - ${ok}\n`, ["version: must be 1, got 2"]],
  ["no rules", "version: 1\nrules: []\n", ["rules: must hold at least one rule"]],
  [
    "unknown top-level key",
    `version: 1\nrule: []\nrules:\n  - ${ok}\n`,
    ['(top level): unknown key "rule"; allowed: version, rules'],
  ],
  [
    "bad severity and unknown rule key",
    withRules("{id: py.a, pattern: x, languages: [python], severity: severe, message: m, extra: 1}"),
    [
      'rules[0].severity (rule py.a): expected one of info|low|medium|high|critical, got "severe"',
      'rules[0] (rule py.a): unknown key "extra"; allowed: id, pattern, requires, flags, languages, severity, message',
    ],
  ],
  [
    "every field wrong at once",
    withRules("{id: Bad_Id, pattern: '(', languages: [ruby], severity: low, message: ' '}"),
    [
      'rules[0].id (rule Bad_Id): must look like "py.eval-exec" (prefix py|js|sh|any, then kebab-case), got "Bad_Id"',
      "rules[0].pattern (rule Bad_Id): does not compile: Invalid regular expression: /(/gm: Unterminated group",
      'rules[0].languages[0] (rule Bad_Id): expected one of python|javascript|typescript|shell, got "ruby"',
      "rules[0].message (rule Bad_Id): must say what was found, why it matters and what to do",
    ],
  ],
  [
    "pattern matching the empty string, bad flags, no languages",
    withRules("{id: py.a, pattern: 'x*', languages: [], severity: low, message: m, flags: g}"),
    [
      "rules[0].pattern (rule py.a): matches the empty string, so it would fire everywhere; make it require at least one character",
      'rules[0].flags (rule py.a): may only contain the letters i, s, u, got "g"',
      "rules[0].languages (rule py.a): must name at least one language",
    ],
  ],
  [
    "pattern valid only without the u flag",
    withRules("{id: py.a, pattern: '\\-x', flags: u, languages: [python], severity: low, message: m}"),
    [
      'rules[0].pattern (rule py.a): does not compile: Invalid regular expression: /\\-x/gmu: Invalid escape (with flags "u")',
    ],
  ],
  [
    "duplicate rule id",
    withRules(ok, "{id: py.a, pattern: y, languages: [python], severity: low, message: m}"),
    ['rules[1].id (rule py.a): duplicate id "py.a"'],
  ],
  [
    "missing and mistyped fields",
    withRules("{id: py.a, languages: python, severity: low}"),
    [
      "rules[0].pattern (rule py.a): must be a regex string, got nothing",
      'rules[0].languages (rule py.a): must be a list of languages, got "python"',
      "rules[0].message (rule py.a): must be a string, got nothing",
    ],
  ],
  [
    "bad requires regex",
    withRules("{id: py.a, pattern: x, requires: '[', languages: [python], severity: low, message: m}"),
    [
      "rules[0].requires (rule py.a): does not compile: Invalid regular expression: /[/gm: Unterminated character class",
    ],
  ],
];

describe("parseRules", () => {
  it.each(PROBLEMS)("%s", (_name, text, problems) => {
    expect(parseRules(text, "/r.yaml")).toEqual({ ok: false, problems });
  });

  it("compiles a valid file: gm plus extra flags, requires, deduplicated languages, collapsed message", () => {
    const result = parseRules(
      withRules(
        "{id: sh.b, pattern: 'ab', requires: 'zz', flags: i, languages: [shell, shell], severity: critical, message: \"  two\\n  lines \"}",
      ),
      "/r.yaml",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [rule] = result.ruleSet.rules;
    expect(result.ruleSet.source).toBe("/r.yaml");
    expect(rule?.pattern.flags).toBe("gim");
    expect(rule?.requires?.source).toBe("zz");
    expect(rule?.languages).toEqual(["shell"]);
    expect(rule?.message).toBe("two lines");
    expect(
      scanText("AB\nZZ", { file: "f", language: "shell", ruleSet: result.ruleSet }).map((f) => f.ruleId),
    ).toEqual(["sh.b"]);
  });
});

describe("loadRules", () => {
  let dir: string;
  beforeAll(async () => {
    dir = tempRoot("skillgate-scan-rules-").dir;
  });
  afterAll(async () => {
    removeTree(dir);
  });

  it("loads the bundled rules.yaml from beside the module", async () => {
    const ruleSet = await loadRules();
    expect(ruleSet.source).toBe(defaultRulesFile());
    expect(defaultRulesFile().endsWith("/runtime/scan/rules.yaml")).toBe(true);
    expect(ruleSet.rules.length).toBeGreaterThanOrEqual(40);
  });

  it("throws CONFIG_INVALID naming the file, each problem and the fix", async () => {
    const file = join(dir, "bad.yaml");
    await writeFile(
      file,
      withRules("{id: py.a, pattern: '(', languages: [python], severity: severe, message: m}"),
    );
    const error = await loadRules(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillgateError);
    expect((error as SkillgateError).code).toBe("CONFIG_INVALID");
    expect((error as SkillgateError).message).toBe(
      `invalid scan rules file ${file} (2 problems):\n` +
        "  - rules[0].pattern (rule py.a): does not compile: Invalid regular expression: /(/gm: Unterminated group\n" +
        '  - rules[0].severity (rule py.a): expected one of info|low|medium|high|critical, got "severe"\n' +
        "Fix each entry above; the format is described at the top of the bundled runtime/scan/rules.yaml.",
    );
  });

  it("throws CONFIG_UNREADABLE for a missing file", async () => {
    const file = join(dir, "missing.yaml");
    const error = await loadRules(file).catch((caught: unknown) => caught);
    expect((error as SkillgateError).code).toBe("CONFIG_UNREADABLE");
    expect((error as SkillgateError).message).toBe(
      `cannot read scan rules file ${file}: ENOENT: no such file or directory, open '${file}'. ` +
        "Fix: point --rules at a readable YAML file, or reinstall skillgate to restore the bundled rules.yaml.",
    );
  });
});
