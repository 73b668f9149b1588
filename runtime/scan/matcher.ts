// Pure matching: runs compiled rules over one text and returns findings with line, column and excerpt.
import { languageFromFenceTag } from "./language.js";
import { atLeast } from "./severity.js";
import type { Finding, RuleSet, ScanLanguage, ScanSeverity } from "./types.js";

const EXCERPT_MAX = 160;

export interface MatchOptions {
  /** Reported as Finding.file. */
  file: string;
  language: ScanLanguage;
  ruleSet: RuleSet;
  minSeverity?: ScanSeverity;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}

/** Index of the last line start <= offset (binary search). */
function lineIndexAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The line holding the match, trimmed; long lines are cut to a window around the match. */
export function excerptOf(lineText: string, columnIndex: number): string {
  const line = lineText.replace(/\r$/, "");
  const trimmed = line.trim();
  if (trimmed.length <= EXCERPT_MAX) return trimmed;
  const start = Math.max(0, Math.min(columnIndex - 40, line.length - EXCERPT_MAX));
  const window = line.slice(start, start + EXCERPT_MAX - 2).trim();
  return `${start > 0 ? "…" : ""}${window}${start + EXCERPT_MAX - 2 < line.length ? "…" : ""}`;
}

/** Runs every rule for `language` over `text`; at most one finding per rule and line, sorted by position. */
export function scanText(text: string, options: MatchOptions): Finding[] {
  const minimum = options.minSeverity ?? "info";
  const starts = lineStarts(text);
  const findings: Finding[] = [];
  for (const rule of options.ruleSet.rules) {
    if (!rule.languages.includes(options.language) || !atLeast(rule.severity, minimum)) continue;
    if (rule.requires) {
      rule.requires.lastIndex = 0;
      if (!rule.requires.test(text)) continue;
    }
    const linesSeen = new Set<number>();
    for (const match of text.matchAll(rule.pattern)) {
      const lineIndex = lineIndexAt(starts, match.index);
      if (linesSeen.has(lineIndex)) continue;
      linesSeen.add(lineIndex);
      const lineStart = starts[lineIndex]!;
      const lineEnd = lineIndex + 1 < starts.length ? starts[lineIndex + 1]! - 1 : text.length;
      findings.push({
        ruleId: rule.id,
        severity: rule.severity,
        message: rule.message,
        file: options.file,
        line: lineIndex + 1,
        column: match.index - lineStart + 1,
        excerpt: excerptOf(text.slice(lineStart, lineEnd), match.index - lineStart),
        language: options.language,
      });
    }
  }
  return findings.sort(compareFindings);
}

export interface FencedBlock {
  language: ScanLanguage;
  /** 0-based index of the first line inside the fence. */
  firstLine: number;
  text: string;
}

/** Fenced code blocks (``` or ~~~) whose info string names a scannable language; others are ignored. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split("\n").map((line) => line.replace(/\r$/, ""));
  const blocks: FencedBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const start = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[index]!);
    index += 1;
    if (!start) continue;
    const fence = start[1]!;
    const language = languageFromFenceTag(start[2]!);
    const firstLine = index;
    // An unclosed fence runs to the end of the document (CommonMark), so its content is still scanned.
    while (index < lines.length) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[index]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      index += 1;
    }
    if (language) blocks.push({ language, firstLine, text: lines.slice(firstLine, index).join("\n") });
    index += 1;
  }
  return blocks;
}

/** Scans the fenced code blocks of a Markdown text; line numbers refer to the Markdown file. */
export function scanMarkdown(markdown: string, options: Omit<MatchOptions, "language">): Finding[] {
  const findings: Finding[] = [];
  for (const block of fencedBlocks(markdown)) {
    for (const finding of scanText(block.text, { ...options, language: block.language })) {
      findings.push({ ...finding, line: finding.line + block.firstLine });
    }
  }
  return findings.sort(compareFindings);
}

/** By file (code point), line, column, then rule id. */
export function compareFindings(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  return a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0;
}
