// The registry of built-in checker kinds and the runner that validates args, expands placeholders and runs one checker.
import type { CheckerConfig } from "../../config/index.js";
import { resolveWorkspacePlaceholders } from "../../workspace/index.js";
import { command } from "./command.js";
import { fileExists } from "./file-exists.js";
import { jsonSchema } from "./json-schema.js";
import { markdownEntries } from "./markdown-entries.js";
import { markdownHeadings } from "./markdown-headings.js";
import { regexCount } from "./regex-count.js";
import type { CheckerContext, CheckerKind, CheckerOutcome } from "./types.js";

export type { CheckerContext, CheckerKind, CheckerOutcome } from "./types.js";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds with different arg types
export const CHECKER_KINDS: Record<CheckerConfig["kind"], CheckerKind<any>> = {
  file_exists: fileExists,
  markdown_headings: markdownHeadings,
  markdown_entries: markdownEntries,
  regex_count: regexCount,
  json_schema: jsonSchema,
  command,
};

/** Problems with a checker's args ("args.path: ..."), empty when they fit the kind. */
export function checkerArgProblems(checker: { kind: string; args?: unknown }): string[] {
  const kind = CHECKER_KINDS[checker.kind as CheckerConfig["kind"]];
  if (!kind)
    return [`unknown checker kind '${checker.kind}' (known: ${Object.keys(CHECKER_KINDS).join(", ")})`];
  const parsed = kind.args.safeParse(checker.args ?? {});
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? `args.${issue.path.join(".")}` : "args";
    return `${path}: ${issue.message}`;
  });
}

/** Runs one checker; bad args and crashes come back as failed outcomes, never as throws. */
export async function runChecker(checker: CheckerConfig, ctx: CheckerContext): Promise<CheckerOutcome> {
  const kind = CHECKER_KINDS[checker.kind];
  const expanded = expand(checker.args ?? {}, ctx);
  const parsed = kind.args.safeParse(expanded);
  if (!parsed.success) {
    return {
      ok: false,
      message: `${checker.kind}: the checker's args are invalid (${checkerArgProblems(checker).join("; ")}); the workflow config must be fixed.`,
    };
  }
  try {
    return await kind.run(parsed.data, ctx);
  } catch (error) {
    return {
      ok: false,
      message: `${checker.kind}: the checker crashed (${(error as Error).message ?? String(error)}).`,
    };
  }
}

function expand(value: unknown, ctx: CheckerContext): unknown {
  if (typeof value === "string") return resolveWorkspacePlaceholders(value, ctx.runtime);
  if (Array.isArray(value)) return value.map((v) => expand(v, ctx));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, ctx)]));
  }
  return value;
}
