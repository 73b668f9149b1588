// Loads and validates the scan rules file (rules.yaml next to this module) with zod, compiling each pattern once.
import { readFile as fsReadFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { z } from "zod";
import { SkillgateError } from "../errors.js";
import { LANGUAGES, type RuleSet, type ScanRule, SEVERITIES } from "./types.js";

const RULE_ID = /^(?:py|js|sh|any)\.[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EXTRA_FLAGS = /^[isu]*$/;

function describe(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

/** Compiles a rule regex with the flags every rule runs with; returns the error text when it does not compile. */
export function compilePattern(source: string, extraFlags = ""): RegExp | string {
  try {
    return new RegExp(source, `gm${extraFlags}`);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function patternProblem(source: string, flags: string): string | null {
  const compiled = compilePattern(source, flags);
  if (typeof compiled === "string") return `does not compile: ${compiled}`;
  if (compiled.test(""))
    return "matches the empty string, so it would fire everywhere; make it require at least one character";
  return null;
}

function regexField() {
  return z
    .string({ error: (iss) => `must be a regex string, got ${describe(iss.input)}` })
    .min(1, { error: "must not be empty" })
    .superRefine((source, ctx) => {
      const problem = patternProblem(source, "");
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null || value === undefined) return "nothing";
  return `a ${typeof value}`;
}

const ruleSchema = z
  .strictObject({
    id: z.string({ error: (iss) => `must be a string, got ${describe(iss.input)}` }).regex(RULE_ID, {
      error: (iss) =>
        `must look like "py.eval-exec" (prefix py|js|sh|any, then kebab-case), got ${describe(iss.input)}`,
    }),
    pattern: regexField(),
    requires: regexField().optional(),
    flags: z
      .string({ error: (iss) => `must be a string, got ${describe(iss.input)}` })
      .regex(EXTRA_FLAGS, {
        error: (iss) => `may only contain the letters i, s, u, got ${describe(iss.input)}`,
      })
      .optional(),
    languages: z
      .array(
        z.enum(LANGUAGES, {
          error: (iss) => `expected one of ${LANGUAGES.join("|")}, got ${describe(iss.input)}`,
        }),
        { error: (iss) => `must be a list of languages, got ${describe(iss.input)}` },
      )
      .min(1, { error: "must name at least one language" }),
    severity: z.enum(SEVERITIES, {
      error: (iss) => `expected one of ${SEVERITIES.join("|")}, got ${describe(iss.input)}`,
    }),
    message: z
      .string({ error: (iss) => `must be a string, got ${describe(iss.input)}` })
      .trim()
      .min(1, { error: "must say what was found, why it matters and what to do" }),
  })
  .superRefine((rule, ctx) => {
    // Patterns were checked without extra flags above; "u" (or "s") can change what compiles.
    if (!rule.flags || !EXTRA_FLAGS.test(rule.flags)) return;
    for (const key of ["pattern", "requires"] as const) {
      const source = rule[key];
      const problem = source === undefined ? null : patternProblem(source, rule.flags);
      if (problem)
        ctx.addIssue({ code: "custom", path: [key], message: `${problem} (with flags "${rule.flags}")` });
    }
  });

const rulesFileSchema = z
  .strictObject(
    {
      version: z.literal(1, { error: (iss) => `must be 1, got ${describe(iss.input)}` }),
      rules: z
        .array(ruleSchema, { error: (iss) => `must be a list of rules, got ${describe(iss.input)}` })
        .min(1, { error: "must hold at least one rule" }),
    },
    {
      error: (iss) =>
        `the file must be a mapping with \`version: 1\` and \`rules: [...]\`, got ${kindOf(iss.input)}`,
    },
  )
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.rules.forEach((rule, index) => {
      if (seen.has(rule.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["rules", index, "id"],
          message: `duplicate id ${describe(rule.id)}`,
        });
      }
      seen.add(rule.id);
    });
  });

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path)
    text += typeof part === "number" ? `[${part}]` : `${text ? "." : ""}${String(part)}`;
  return text || "(top level)";
}

function ruleIdAt(data: unknown, path: readonly PropertyKey[]): string | null {
  if (path[0] !== "rules" || typeof path[1] !== "number" || typeof data !== "object" || data === null)
    return null;
  const rules = (data as { rules?: unknown }).rules;
  const rule = Array.isArray(rules) ? rules[path[1]] : undefined;
  const id = typeof rule === "object" && rule !== null ? (rule as { id?: unknown }).id : undefined;
  return typeof id === "string" ? id : null;
}

function issueText(issue: z.core.$ZodIssue, data: unknown): string {
  const id = ruleIdAt(data, issue.path);
  const where = `${formatPath(issue.path)}${id ? ` (rule ${id})` : ""}`;
  const message =
    issue.code === "unrecognized_keys"
      ? `unknown key ${issue.keys.map((key) => describe(key)).join(", ")}; allowed: ${
          issue.path.length === 0
            ? "version, rules"
            : "id, pattern, requires, flags, languages, severity, message"
        }`
      : issue.message;
  return `${where}: ${message}`;
}

export type ParseRulesResult = { ok: true; ruleSet: RuleSet } | { ok: false; problems: string[] };

/** Pure: validates rules-file text. Never throws on bad input; returns every problem found. */
export function parseRules(text: string, source: string): ParseRulesResult {
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) => {
        const position = error.linePos?.[0];
        const at = position ? `line ${position.line}, column ${position.col}` : "unknown position";
        const reason = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
        return `YAML error at ${at}: ${reason}`;
      }),
    };
  }
  const data: unknown = document.toJS();
  const parsed = rulesFileSchema.safeParse(data);
  if (!parsed.success)
    return { ok: false, problems: parsed.error.issues.map((issue) => issueText(issue, data)) };
  const rules: ScanRule[] = parsed.data.rules.map((rule) => ({
    id: rule.id,
    pattern: compilePattern(rule.pattern, rule.flags) as RegExp,
    requires: rule.requires === undefined ? null : (compilePattern(rule.requires, rule.flags) as RegExp),
    languages: [...new Set(rule.languages)],
    severity: rule.severity,
    message: rule.message.replace(/\s+/g, " "),
  }));
  return { ok: true, ruleSet: { source, rules } };
}

export function defaultRulesFile(): string {
  return fileURLToPath(new URL("./rules.yaml", import.meta.url));
}

let defaultRuleSet: Promise<RuleSet> | null = null;

export type ReadText = (path: string) => Promise<string>;

const readUtf8: ReadText = (path) => fsReadFile(path, "utf8");

/**
 * Reads and validates a rules file (default: the bundled rules.yaml, cached).
 * Throws CONFIG_UNREADABLE / CONFIG_INVALID naming the file, each bad key path and the fix.
 */
export async function loadRules(file?: string, readText: ReadText = readUtf8): Promise<RuleSet> {
  if (file === undefined && readText === readUtf8) {
    defaultRuleSet ??= readRuleFile(defaultRulesFile(), readText).catch((error: unknown) => {
      defaultRuleSet = null;
      throw error;
    });
    return defaultRuleSet;
  }
  return readRuleFile(file ?? defaultRulesFile(), readText);
}

async function readRuleFile(file: string, readText: ReadText): Promise<RuleSet> {
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SkillgateError(
      "CONFIG_UNREADABLE",
      `cannot read scan rules file ${file}: ${reason}. Fix: point --rules at a readable YAML file, or reinstall skillgate to restore the bundled rules.yaml.`,
      { file },
    );
  }
  const result = parseRules(text, file);
  if (result.ok) return result.ruleSet;
  throw new SkillgateError(
    "CONFIG_INVALID",
    `invalid scan rules file ${file} (${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}):\n${result.problems
      .map((problem) => `  - ${problem}`)
      .join(
        "\n",
      )}\nFix each entry above; the format is described at the top of the bundled runtime/scan/rules.yaml.`,
    { file, problems: result.problems },
  );
}
