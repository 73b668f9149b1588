// Checker `markdown_entries`: entries start at lines matching entry_pattern and each carries `- **Field**: value` lines.
import { z } from "zod";
import { readTextArg, splitLines } from "./files.js";
import type { CheckerKind } from "./types.js";

const Args = z
  .object({
    path: z.string().min(1),
    entry_pattern: z.string().min(1).refine(isRegex, { message: "not a valid regular expression" }),
    required_fields: z.array(z.string().min(1)).default([]),
    min_entries: z.number().int().min(0).default(1),
  })
  .strict();

const MAX_LISTED = 10;

export const markdownEntries: CheckerKind<z.infer<typeof Args>> = {
  kind: "markdown_entries",
  args: Args,
  async run(args, ctx) {
    const file = await readTextArg("markdown_entries", args.path, ctx);
    if (!file.ok) return file;
    const entryStart = new RegExp(args.entry_pattern);
    const lines = splitLines(file.text);
    const entries: Array<{ line: number; title: string; body: string[] }> = [];
    lines.forEach((line, i) => {
      if (entryStart.test(line)) entries.push({ line: i + 1, title: line.trim(), body: [] });
      else entries[entries.length - 1]?.body.push(line);
    });
    if (entries.length < args.min_entries) {
      return {
        ok: false,
        message: `markdown_entries: ${file.shown} has ${entries.length} entr${entries.length === 1 ? "y" : "ies"} matching /${args.entry_pattern}/ (need at least ${args.min_entries}); start each entry with a line matching that pattern.`,
      };
    }
    const problems: string[] = [];
    for (const entry of entries) {
      for (const field of args.required_fields) {
        if (!hasField(entry.body, field))
          problems.push(`line ${entry.line}, entry '${entry.title}': missing '- **${field}**: <value>'`);
      }
    }
    if (problems.length > 0) {
      const shown = problems.slice(0, MAX_LISTED);
      const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : "";
      return {
        ok: false,
        message: `markdown_entries: ${file.shown}: ${shown.join("; ")}${more}. Add each missing field as a line '- **Field**: value' (non-empty) inside its entry.`,
      };
    }
    return {
      ok: true,
      message: `markdown_entries: ${file.shown} has ${entries.length} complete entr${entries.length === 1 ? "y" : "ies"}.`,
    };
  },
};

function hasField(body: string[], field: string): boolean {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^\\s*[-*]\\s+\\*\\*${escaped}\\*\\*\\s*:\\s*(.*)$`);
  return body.some((line) => {
    const match = pattern.exec(line);
    return match !== null && (match[1] ?? "").trim().length > 0;
  });
}

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
