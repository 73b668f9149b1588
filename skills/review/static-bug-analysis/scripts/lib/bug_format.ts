// The bug entry format of OUT/static_bug_analysis.md, shared by record_bug.ts and list_bugs.ts (mirrors the stage-1 checkers).

export const BUG_FILE_NAME = "static_bug_analysis.md";
export const TITLE_LINE = "# Static Bug Analysis";
/** Same rule as the stage-1 markdown_entries checker's entry_pattern. */
export const ENTRY_PATTERN = /^## BUG-(\d{3}): (\S.*)$/;
export const FIELDS = ["File", "Line", "Severity", "Description"] as const;
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;

export type Field = (typeof FIELDS)[number];
export type Severity = (typeof SEVERITIES)[number];

export interface BugInput {
  file: string;
  line: number;
  severity: Severity;
  title: string;
  description: string;
}

export interface ParsedEntry {
  id: string;
  number: number;
  title: string;
  /** 1-based line of the entry heading in the file. */
  headingLine: number;
  fields: Partial<Record<Field, string>>;
  problems: string[];
}

export function formatBugId(number: number): string {
  return `BUG-${String(number).padStart(3, "0")}`;
}

/** One entry, ending with a blank line, exactly as the checkers accept it. */
export function formatEntry(number: number, bug: BugInput): string {
  return [
    `## ${formatBugId(number)}: ${bug.title}`,
    `- **File**: ${bug.file}`,
    `- **Line**: ${bug.line}`,
    `- **Severity**: ${bug.severity}`,
    `- **Description**: ${bug.description}`,
    "",
  ].join("\n");
}

const FIELD_LINE = /^- \*\*([^*]+)\*\*: (.*)$/;

/** Entries of a bug file with the problems the checkers would report for each. */
export function parseEntries(text: string): ParsedEntry[] {
  const entries: ParsedEntry[] = [];
  let current: ParsedEntry | null = null;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trimEnd();
    const heading = ENTRY_PATTERN.exec(line);
    if (heading) {
      current = {
        id: `BUG-${heading[1]}`,
        number: Number(heading[1]),
        title: heading[2] ?? "",
        headingLine: index + 1,
        fields: {},
        problems: [],
      };
      entries.push(current);
      return;
    }
    const field = FIELD_LINE.exec(line);
    if (current && field) {
      const name = field[1] as Field;
      if ((FIELDS as readonly string[]).includes(name)) current.fields[name] = (field[2] ?? "").trim();
    }
  });
  for (const entry of entries) {
    for (const name of FIELDS) {
      if (!entry.fields[name]) entry.problems.push(`missing field "- **${name}**: <value>"`);
    }
    const lineValue = entry.fields.Line;
    if (lineValue && !/^\d+$/.test(lineValue)) entry.problems.push(`Line "${lineValue}" is not a line number`);
    const severity = entry.fields.Severity;
    if (severity && !(SEVERITIES as readonly string[]).includes(severity)) {
      entry.problems.push(`Severity "${severity}" is not one of ${SEVERITIES.join(", ")}`);
    }
  }
  return entries;
}

/** The folder of the bug file: $OUT, else ./out (relative to the current folder). */
export function outDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.OUT && env.OUT.trim() !== "" ? env.OUT : "out";
}
