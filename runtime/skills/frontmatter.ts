// Splits a SKILL.md text into its YAML frontmatter block and Markdown body with the exact UCAgent rules.

export type SplitResult =
  | {
      ok: true;
      yaml: string;
      body: string /** 1-based line number of the first YAML line in the file. */;
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
 * UCAgent matches `^---\s*\n(.*?)\n---\s*\n` on the whole text: the first line is `---` (trailing
 * whitespace and CR allowed), the block ends at the first line that is `---` followed by a newline.
 * We follow the same shape but keep the block's lines intact and report why a file has no block.
 */
export function splitFrontmatter(text: string): SplitResult {
  const firstLineEnd = text.indexOf("\n");
  const firstLine = firstLineEnd === -1 ? text : text.slice(0, firstLineEnd);
  if (text.startsWith(BOM)) return { ok: false, code: "BOM", firstLine };
  if (firstLine.trim() === "" && text.length > 0 && firstLineEnd !== -1) {
    return { ok: false, code: "BLANK_FIRST_LINE", firstLine };
  }
  if (!/^---[ \t\r]*$/.test(firstLine) || firstLineEnd === -1) {
    return { ok: false, code: "NO_FRONTMATTER", firstLine };
  }
  const yamlStart = firstLineEnd + 1;
  let lineStart = yamlStart;
  while (lineStart <= text.length) {
    const lineEnd = text.indexOf("\n", lineStart);
    // Slice only lines that can close the block.
    if (
      text.startsWith("---", lineStart) &&
      /^---[ \t\r]*$/.test(text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd))
    ) {
      if (lineEnd === -1) return { ok: false, code: "CLOSING_NO_NEWLINE", firstLine };
      const yaml = text.slice(yamlStart, lineStart);
      if (yaml.trim() === "") return { ok: false, code: "EMPTY_FRONTMATTER", firstLine };
      return { ok: true, yaml, body: text.slice(lineEnd + 1), yamlLine: 2 };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return { ok: false, code: "UNCLOSED_FRONTMATTER", firstLine };
}
