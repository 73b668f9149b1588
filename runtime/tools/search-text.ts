// SearchText (UCAgent): matching lines with context in workspace text files, grouped per file; regexes run with a timeout.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { readWorkspaceText, statWorkspacePathIfExists } from "../workspace/index.js";
import { fileErrorResult, fnmatchRegExp, MAX_TEXT_BYTES } from "./file-common.js";
import { hasHiddenSegment, isTextFile, matchPatternList, walkWorkspace } from "./file-scan.js";
import { RegexRunner, RegexTimeout } from "./regex-worker.js";
import { errorResult, okResult } from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const searchTextInput = z
  .object({
    pattern: z
      .string()
      .describe(
        "Text pattern to search for in the files. Supports plain text, wildcards (*?), and regex patterns. Examples: " +
          "'class My*' (wildcard), 'def .*function.*:' (regex), or plain text 'hello world'.",
      ),
    directory: z
      .string()
      .default("")
      .describe(
        "Subdirectory path to search in, relative to the workspace. If empty, searches in the entire workspace. If " +
          "it is a text file, it will search in the file only.",
      ),
    max_match_lines: z
      .number()
      .int()
      .min(1)
      .default(20)
      .describe("Maximum number of matching lines to return per file."),
    max_match_files: z
      .number()
      .int()
      .min(1)
      .default(10)
      .describe("Maximum number of matching files to return."),
    use_regex: z
      .boolean()
      .default(false)
      .describe("If True, treat pattern as regular expression. If False, use wildcard/plain text matching."),
    case_sensitive: z
      .boolean()
      .default(false)
      .describe("If True, perform case-sensitive search. If False, ignore case."),
    include_line_numbers: z
      .boolean()
      .default(true)
      .describe("If True, include line numbers in results. If False, show only the matching content."),
    context_before: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(1)
      .describe("Number of original lines to return before each match (default: 1)."),
    context_after: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(1)
      .describe("Number of original lines to return after each match (default: 1)."),
    regex_timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(50)
      .describe("Maximum milliseconds allowed for each regular-expression match."),
  })
  .strict();

type Input = z.infer<typeof searchTextInput>;

export const SEARCH_IGNORE = [".git/*", "*/data/*", ".ucagent/*", "uc_test_report/*", "*.dat", "*.fst"];
/** A whole file's regex scan never runs longer than this, whatever regex_timeout_ms times its lines gives. */
const MAX_FILE_REGEX_MS = 5000;

/** UCAgent's per-file rendering: matches, context lines, "..." between gaps, truncation note; null when nothing matched. */
export function renderMatches(
  lines: string[],
  hit: (index: number) => boolean,
  input: Pick<Input, "max_match_lines" | "context_before" | "context_after" | "include_line_numbers">,
): { text: string; matches: number } | null {
  const shown = new Map<number, string>();
  const before: [number, string][] = [];
  let matches = 0;
  let includeUntil = 0;
  let truncated = false;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i]!;
    const matched = hit(i);
    const remember = () => {
      before.push([n, line]);
      if (before.length > input.context_before) before.shift();
    };
    if (matched && matches >= input.max_match_lines) {
      truncated = true;
      if (n <= includeUntil && !shown.has(n)) shown.set(n, line);
      if (n >= includeUntil) break;
      remember();
      continue;
    }
    if (matched) {
      matches += 1;
      for (const [pn, pl] of before) if (!shown.has(pn)) shown.set(pn, pl);
      shown.set(n, line);
      includeUntil = Math.max(includeUntil, n + input.context_after);
    } else if (n <= includeUntil && !shown.has(n)) shown.set(n, line);
    remember();
  }
  if (shown.size === 0) return null;
  const rendered: string[] = [];
  let previous: number | null = null;
  for (const [n, line] of [...shown.entries()].sort((a, b) => a[0] - b[0])) {
    if (previous !== null && n > previous + 1) rendered.push("...");
    rendered.push(input.include_line_numbers ? `${n}: ${line}` : line);
    previous = n;
  }
  if (truncated) {
    rendered.push(
      `... (truncated to ${input.max_match_lines} matching ${input.max_match_lines === 1 ? "line" : "lines"})`,
    );
  }
  return { text: rendered.join("\n"), matches };
}

function fenced(path: string, content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${path}:\n${fence}text\n${content}\n${fence}`;
}

export async function searchText(input: Input, session: Session): Promise<ToolResult> {
  const { pattern, directory } = input;
  const root = session.paths.root;
  if (!pattern) return errorResult("INVALID_ARGS", "No text pattern provided for search.", {});
  let runner: RegexRunner | null = null;
  if (input.use_regex) {
    try {
      new RegExp(pattern, input.case_sensitive ? "" : "i");
    } catch (error) {
      return errorResult("INVALID_ARGS", `Invalid regex pattern '${pattern}': ${(error as Error).message}`, {
        pattern,
      });
    }
    runner = new RegexRunner(pattern, input.case_sensitive ? "" : "i");
  }
  const wildcard = !input.use_regex && (pattern.includes("*") || pattern.includes("?"));
  const target = input.case_sensitive ? pattern : pattern.toLowerCase();
  const wildcardRe = wildcard ? fnmatchRegExp(target) : null;
  const plainHit = (line: string) => {
    const candidate = input.case_sensitive ? line : line.toLowerCase();
    return wildcardRe ? wildcardRe.test(candidate) : candidate.includes(target);
  };
  const results: string[] = [];
  const files: { path: string; matches: number }[] = [];
  let lineCount = 0;
  const searchFile = async (rel: string): Promise<boolean> => {
    let text: string;
    try {
      text = (await readWorkspaceText(root, rel, { maxBytes: MAX_TEXT_BYTES })).text;
    } catch (error) {
      if (error instanceof SkillgateError) return false;
      throw error;
    }
    const lines =
      text.length === 0 ? [] : text.split(/(?<=\n)/).map((line) => line.replace(/\r?\n$|\r$/, ""));
    let hits: Set<number> | null = null;
    if (runner) {
      try {
        hits = await runner.match(
          lines,
          Math.min(MAX_FILE_REGEX_MS, input.regex_timeout_ms * Math.max(1, lines.length)),
        );
      } catch (error) {
        if (error instanceof RegexTimeout) {
          throw new SkillgateError(
            "REGEX_TIMEOUT",
            `Regular expression timed out after ${input.regex_timeout_ms} ms per line while searching ${rel}. Use a ` +
              "more specific pattern or plain-text search.",
            { path: rel },
          );
        }
        throw error;
      }
    }
    const rendered = renderMatches(lines, (i) => (hits ? hits.has(i) : plainHit(lines[i]!)), input);
    if (!rendered) return false;
    results.push(fenced(rel, rendered.text));
    lineCount += rendered.matches;
    files.push({ path: rel, matches: rendered.matches });
    return rendered.matches > 0;
  };
  let truncated = false;
  try {
    const target = await statWorkspacePathIfExists(root, directory || ".", { follow: true });
    if (target?.kind === "file") {
      if (await isTextFile(root, target.path)) await searchFile(target.path);
    } else {
      const walked = await walkWorkspace(root, directory || ".");
      for (const entry of walked.entries) {
        if (
          entry.kind !== "file" ||
          hasHiddenSegment(entry.rel) ||
          matchPatternList(entry.rel, SEARCH_IGNORE)
        )
          continue;
        if (!(await isTextFile(root, entry.rel))) continue;
        if (await searchFile(entry.rel)) {
          if (files.filter((file) => file.matches > 0).length >= input.max_match_files) {
            results.push(`... (truncated to ${input.max_match_files} files)`);
            truncated = true;
            break;
          }
        }
      }
    }
  } catch (error) {
    return fileErrorResult(error, null, directory || ".");
  } finally {
    runner?.close();
  }
  const matchedFiles = files.filter((file) => file.matches > 0).length;
  if (lineCount === 0) {
    return errorResult(
      "MATCH_NOT_FOUND",
      `No matches found for '${pattern}' in the specified directory(${directory || "."}).`,
      { pattern, directory, matching_lines: 0, matching_files: 0, files: [] },
    );
  }
  return okResult(
    `Found ${lineCount} matching ${lineCount === 1 ? "line" : "lines"} in ${matchedFiles} ${matchedFiles === 1 ? "file" : "files"}.\n\n${results.join("\n\n")}`,
    { pattern, directory, matching_lines: lineCount, matching_files: matchedFiles, files, truncated },
  );
}

export const searchTextTool: ToolDefinition<typeof searchTextInput> = {
  name: "SearchText",
  description:
    "Search for text in files within the workspace directory with support for plain text, wildcards, and regex " +
    "patterns. Each matching file is returned once with a fenced code block containing line-numbered matching lines " +
    "and optional context (one line before and after by default). For example: " +
    "'path/to/file.py:\\n```text\\n29: matching line\\n30: nearby line\\n```'. Supports case-sensitive/insensitive search.",
  inputSchema: searchTextInput,
  skillTool: false,
  fileTool: true,
  handler: (input, session) => searchText(input, session),
};
