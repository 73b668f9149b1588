// Splits a SKILL.md text into its YAML frontmatter block and Markdown body exactly as UCAgent finds it.
import { isPySpaceCode, pyStrip } from "./text.js";

export type SplitResult =
  | {
      ok: true;
      yaml: string;
      body: string;
      /** 1-based line number of the first YAML line in the file. */
      yamlLine: number;
    }
  | { ok: false; code: SplitFailure; firstLine: string };

export type SplitFailure =
  | "BOM"
  | "BLANK_FIRST_LINE"
  | "NO_FRONTMATTER"
  | "UNCLOSED_FRONTMATTER"
  | "CLOSING_NO_NEWLINE"
  | "EMPTY_FRONTMATTER";

const BOM = "\uFEFF";

/**
 * UCAgent reads SKILL.md in Python text mode (CRLF and lone CR become LF) and matches
 * `^---\s*\n(.*?)\n---\s*\n` with DOTALL, where `\s` is Python's Unicode whitespace (so also U+00A0,
 * U+3000, `\v`, `\f`, U+0085 and newlines: blank lines after the opening `---` are skipped, and an
 * empty block followed by `---` on line 2 makes that `---` part of the YAML). This gives the same match
 * in linear time (a backtracking regex is quadratic on a long whitespace run); failures are diagnosed.
 */
export function splitFrontmatter(source: string): SplitResult {
  const text = source.includes("\r") ? source.replace(/\r\n?/g, "\n") : source;
  const firstLineEnd = text.indexOf("\n");
  const firstLine = firstLineEnd === -1 ? text : text.slice(0, firstLineEnd);
  const match = text.startsWith("---") ? matchUcagent(text) : null;
  if (match) {
    const yaml = text.slice(match.start, match.end);
    if (pyStrip(yaml) === "") return { ok: false, code: "EMPTY_FRONTMATTER", firstLine };
    const yamlLine = countLines(text, match.start) + 1;
    return { ok: true, yaml, body: text.slice(match.after), yamlLine };
  }
  return { ok: false, code: diagnose(text, firstLine, firstLineEnd), firstLine };
}

/** Where group 1 of UCAgent's pattern starts and ends, and where the whole match ends. */
function matchUcagent(text: string): { start: number; end: number; after: number } | null {
  const breaks: number[] = [];
  let index = 3;
  while (index < text.length && isPySpaceCode(text.charCodeAt(index))) {
    if (text[index] === "\n") breaks.push(index);
    index++;
  }
  const last = breaks[breaks.length - 1];
  if (last === undefined) return null;
  // Greedy `\s*\n`: try the group starting after the last newline of the run first.
  const closing = findClosing(text, last + 1);
  if (closing) return { start: last + 1, end: closing.at, after: closing.after };
  // Else the run's last newline can itself open the closing `\n---` (for the group after the one before).
  const previous = breaks[breaks.length - 2];
  if (previous !== undefined) {
    const after = closingAt(text, last);
    if (after !== null) return { start: previous + 1, end: last, after };
  }
  return null;
}

/** The first `\n---\s*\n` at or after `from`. */
function findClosing(text: string, from: number): { at: number; after: number } | null {
  for (let at = text.indexOf("\n---", from); at !== -1; at = text.indexOf("\n---", at + 1)) {
    const after = closingAt(text, at);
    if (after !== null) return { at, after };
  }
  return null;
}

/** End of `\n---\s*\n` (greedy whitespace ending in a newline) starting at `at`, or null. */
function closingAt(text: string, at: number): number | null {
  if (!text.startsWith("\n---", at)) return null;
  let index = at + 4;
  let lastBreak = -1;
  while (index < text.length && isPySpaceCode(text.charCodeAt(index))) {
    if (text[index] === "\n") lastBreak = index;
    index++;
  }
  return lastBreak === -1 ? null : lastBreak + 1;
}

function countLines(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < end; index = text.indexOf("\n", index + 1))
    count++;
  return count;
}

/** Why UCAgent's pattern does not match, for the diagnostic. */
function diagnose(text: string, firstLine: string, firstLineEnd: number): SplitFailure {
  if (text.startsWith(BOM)) return "BOM";
  if (firstLineEnd !== -1 && pyStrip(firstLine) === "") return "BLANK_FIRST_LINE";
  if (!text.startsWith("---") || firstLineEnd === -1 || pyStrip(firstLine.slice(3)) !== "")
    return "NO_FRONTMATTER";
  // `---` on line 2 right away: nothing between the delimiters.
  const secondLineEnd = text.indexOf("\n", firstLineEnd + 1);
  const secondLine = text.slice(firstLineEnd + 1, secondLineEnd === -1 ? undefined : secondLineEnd);
  if (secondLine.startsWith("---") && pyStrip(secondLine.slice(3)) === "") return "EMPTY_FRONTMATTER";
  // A closing `---` line exists but nothing (no newline) follows it.
  if (/\n---[^\S\n]*$/.test(text.slice(firstLineEnd))) return "CLOSING_NO_NEWLINE";
  return "UNCLOSED_FRONTMATTER";
}
