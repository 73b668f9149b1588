// Checker `markdown_entries`: entries start at lines matching entry_pattern and each carries `- **Field**: value` lines.
import { z } from "zod";
import { readTextArg, splitLines } from "./files.js";
import type { CheckerContext, CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z
    .object({
      path: z.string().min(1),
      entry_pattern: z.string().min(1).refine(isRegex, { message: "not a valid regular expression" }),
      required_fields: z.array(z.string().min(1)).default([]),
      min_entries: z.number().int().min(0).default(1),
      /**
       * One entry per id recorded in another file: every distinct capture group 1 of `id_pattern` (multiline) in
       * `path` must be the value of `field` in at least one entry here, and no entry may name an id not there.
       */
      cover: z
        .object({
          path: z.string().min(1),
          id_pattern: z
            .string()
            .min(1)
            .refine((source) => isRegex(source) && new RegExp(`${source}|`).exec("")!.length > 1, {
              message: "not a valid regular expression with a capture group for the id",
            }),
          field: z.string().min(1),
        })
        .strict()
        .optional(),
    })
    .strict();
let builtArgs: ReturnType<typeof buildArgs> | undefined;

const MAX_LISTED = 10;

export const markdownEntries: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "markdown_entries",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
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
    if (args.cover) {
      const covered = await checkCover(args.cover, entries, file.shown, ctx);
      if (!covered.ok) return covered;
    }
    return {
      ok: true,
      message: `markdown_entries: ${file.shown} has ${entries.length} complete entr${entries.length === 1 ? "y" : "ies"}${args.cover ? `, one or more for each ${args.cover.field} id recorded in ${args.cover.path.replace(/^.*\//, "")}` : ""}.`,
    };
  },
};

type Cover = NonNullable<z.infer<ReturnType<typeof buildArgs>>["cover"]>;

async function checkCover(
  cover: Cover,
  entries: Array<{ line: number; title: string; body: string[] }>,
  shown: string,
  ctx: CheckerContext,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const source = await readTextArg("markdown_entries", cover.path, ctx);
  if (!source.ok) return source;
  const recorded = [
    ...new Set([...source.text.matchAll(new RegExp(cover.id_pattern, "gm"))].map((m) => m[1] ?? "")),
  ].filter((id) => id.length > 0);
  const named = new Map<string, number[]>();
  for (const entry of entries) {
    const value = fieldValue(entry.body, cover.field);
    if (value !== null) named.set(value, [...(named.get(value) ?? []), entry.line]);
  }
  const missing = recorded.filter((id) => !named.has(id));
  const unknown = [...named.keys()].filter((id) => !recorded.includes(id));
  if (missing.length === 0 && unknown.length === 0) return { ok: true };
  const parts: string[] = [];
  if (missing.length > 0)
    parts.push(
      `no entry names ${missing.join(", ")} (recorded in ${source.shown}); add one entry per recorded id with '- **${cover.field}**: <id>'`,
    );
  if (unknown.length > 0)
    parts.push(
      `${unknown.map((id) => `'${id}' (line ${named.get(id)!.join(", ")})`).join(", ")} ${unknown.length === 1 ? "is" : "are"} not recorded in ${source.shown}; name a recorded id`,
    );
  return {
    ok: false,
    message: `markdown_entries: ${shown} must cover each of the ${recorded.length} id(s) recorded in ${source.shown}: ${parts.join("; ")}.`,
  };
}

function fieldValue(body: string[], field: string): string | null {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^\\s*[-*]\\s+\\*\\*${escaped}\\*\\*\\s*:\\s*(.*)$`);
  for (const line of body) {
    const match = pattern.exec(line);
    if (match && (match[1] ?? "").trim().length > 0) return match[1]!.trim();
  }
  return null;
}

function hasField(body: string[], field: string): boolean {
  return fieldValue(body, field) !== null;
}

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
