// The pure matcher: positions, excerpts, one finding per rule and line, `requires`, Markdown fences, ordering.
import { describe, expect, it } from "vitest";
import {
  compareFindings,
  type Finding,
  fencedBlocks,
  parseRules,
  type RuleSet,
  scanMarkdown,
  scanText,
} from "../../runtime/scan/index.js";

function rulesFrom(yaml: string): RuleSet {
  const result = parseRules(yaml, "/virtual/rules.yaml");
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.ruleSet;
}

const ruleSet = rulesFrom(`
version: 1
rules:
  - id: py.call-danger
    pattern: 'danger\\('
    languages: [python, shell]
    severity: high
    message: |
      Found   danger().
      Why and fix.
  - id: py.needs-partner
    pattern: 'first'
    requires: 'second'
    languages: [python]
    severity: low
    message: first with second
  - id: any.word
    pattern: 'WORD'
    flags: i
    languages: [python, javascript, typescript, shell]
    severity: info
    message: a word
`);

function brief(findings: Finding[]): string[] {
  return findings.map((f) => `${f.ruleId}@${f.line}:${f.column} ${f.severity} [${f.excerpt}]`);
}

describe("scanText", () => {
  it("reports 1-based line and column, the trimmed line as excerpt and the collapsed message", () => {
    const findings = scanText("x = 1\n    y = danger(2)\n", { file: "a.py", language: "python", ruleSet });
    expect(findings).toEqual([
      {
        ruleId: "py.call-danger",
        severity: "high",
        message: "Found danger(). Why and fix.",
        file: "a.py",
        line: 2,
        column: 9,
        excerpt: "y = danger(2)",
        language: "python",
      },
    ]);
  });

  it("reports a rule once per line but on every line it matches", () => {
    expect(
      brief(scanText("danger(1); danger(2)\ndanger(3)", { file: "a.py", language: "python", ruleSet })),
    ).toEqual(["py.call-danger@1:1 high [danger(1); danger(2)]", "py.call-danger@2:1 high [danger(3)]"]);
  });

  it("fires a rule with `requires` only when the partner pattern is somewhere in the same text", () => {
    expect(brief(scanText("first\n", { file: "a.py", language: "python", ruleSet }))).toEqual([]);
    expect(brief(scanText("first\n\n# second\n", { file: "a.py", language: "python", ruleSet }))).toEqual([
      "py.needs-partner@1:1 low [first]",
    ]);
  });

  it("applies extra flags (i) and skips rules of other languages", () => {
    expect(brief(scanText("a word here", { file: "a.ts", language: "typescript", ruleSet }))).toEqual([
      "any.word@1:3 info [a word here]",
    ]);
    expect(brief(scanText("danger(1)", { file: "a.ts", language: "typescript", ruleSet }))).toEqual([]);
  });

  it("drops findings below minSeverity", () => {
    const text = "danger(1) word";
    expect(brief(scanText(text, { file: "a.sh", language: "shell", ruleSet, minSeverity: "low" }))).toEqual([
      "py.call-danger@1:1 high [danger(1) word]",
    ]);
  });

  it("handles CRLF line endings without a trailing \\r in the excerpt", () => {
    expect(brief(scanText("a\r\n  danger(1)\r\n", { file: "a.py", language: "python", ruleSet }))).toEqual([
      "py.call-danger@2:3 high [danger(1)]",
    ]);
  });

  it("cuts the excerpt of a long line to a window around the match", () => {
    const line = `${"a".repeat(300)} danger(1) ${"b".repeat(300)}`;
    const [finding] = scanText(line, { file: "a.py", language: "python", ruleSet });
    expect(finding?.column).toBe(302);
    expect(finding?.excerpt).toBe(`…${"a".repeat(39)} danger(1) ${"b".repeat(108)}…`);
    expect(finding?.excerpt.length).toBeLessThanOrEqual(160);
  });

  it("reports a match that spans lines at the line where it starts", () => {
    const spanning = rulesFrom(`
version: 1
rules:
  - id: py.spans
    pattern: 'open\\(\\s+close'
    languages: [python]
    severity: medium
    message: spans lines
`);
    expect(
      brief(scanText("x\nopen(\n   close", { file: "a.py", language: "python", ruleSet: spanning })),
    ).toEqual(["py.spans@2:1 medium [open(]"]);
  });
});

describe("Markdown fenced blocks", () => {
  const markdown = [
    "# Title", // 1
    "Prose with danger(0) is not scanned.", // 2
    "```python", // 3
    "danger(1)", // 4
    "```", // 5
    "~~~text", // 6
    "danger(2)", // 7
    "~~~", // 8
    "````sh title=x", // 9
    "```", // 10 (shorter fence: still inside)
    "echo WORD", // 11
    "````", // 12
    "```", // 13 untagged: not scanned
    "danger(3)", // 14
    "```", // 15
    "```bash", // 16 unclosed: runs to the end
    "danger(4)", // 17
  ].join("\n");

  it("finds only blocks tagged with a scannable language, unclosed ones included", () => {
    expect(fencedBlocks(markdown)).toEqual([
      { language: "python", firstLine: 3, text: "danger(1)" },
      { language: "shell", firstLine: 9, text: "```\necho WORD" },
      { language: "shell", firstLine: 16, text: "danger(4)" },
    ]);
  });

  it("reports findings at their line in the Markdown file, with the block's language", () => {
    const findings = scanMarkdown(markdown, { file: "SKILL.md", ruleSet });
    expect(findings.map((f) => `${f.ruleId}@${f.line}:${f.column} ${f.language}`)).toEqual([
      "py.call-danger@4:1 python",
      "any.word@11:6 shell",
      "py.call-danger@17:1 shell",
    ]);
  });
});

describe("compareFindings", () => {
  it("orders by file (code point), line, column, rule id", () => {
    const make = (file: string, line: number, column: number, ruleId: string): Finding => ({
      ruleId,
      severity: "info",
      message: "m",
      file,
      line,
      column,
      excerpt: "",
      language: null,
    });
    const sorted = [
      make("b", 1, 1, "x"),
      make("a", 2, 1, "x"),
      make("a", 1, 5, "x"),
      make("a", 1, 5, "a"),
      make("B", 9, 9, "x"),
    ]
      .sort(compareFindings)
      .map((f) => `${f.file}:${f.line}:${f.column}:${f.ruleId}`);
    expect(sorted).toEqual(["B:9:9:x", "a:1:5:a", "a:1:5:x", "a:2:1:x", "b:1:1:x"]);
  });
});
