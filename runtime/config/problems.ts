// Turns zod issues on the merged config into user-facing problems: file, line, key path, bad value and fix.
import { z } from "zod";
import { closestName } from "../contracts/index.js";
import { type ConfigLayer, lineOf, type PathSegment } from "./layer.js";
import { originLayer, valueAt } from "./merge.js";

export interface ConfigProblem {
  /** File (or "command-line flags") that introduced the bad value. */
  source: string;
  line?: number;
  /** Key path such as `stage[0].force_use_skill`. */
  keyPath: string;
  /** What is wrong, with the bad value, then the fix. */
  text: string;
}

export function formatKeyPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out || "(top level)";
}

export function describeValue(value: unknown): string {
  if (value === null) return "nothing (null)";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `${JSON.stringify(value)} (a string)`;
  return `${String(value)} (a ${typeof value})`;
}

const EXPECTED: Record<string, string> = {
  boolean: "a boolean (true or false)",
  string: "a string",
  number: "a number",
  int: "a whole number",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
};

function typeFix(expected: string, value: unknown, key: string): string {
  if (value === null) return "give a value after the colon or delete the line";
  if (expected === "boolean") {
    if (typeof value === "string") {
      const lower = value.trim().toLowerCase();
      if (lower === "true" || lower === "false") return `write ${lower} without quotes`;
      if (["yes", "on", "y"].includes(lower)) return "write true instead";
      if (["no", "off", "n"].includes(lower)) return "write false instead";
    }
    return "write true or false";
  }
  if (expected === "number" || expected === "int") {
    if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
      return `write ${value.trim()} without quotes`;
    }
    if (typeof value === "number") return "use a whole number";
    return "write a number";
  }
  if (expected === "string") {
    if (typeof value === "number" || typeof value === "boolean") return `quote it: "${String(value)}"`;
    return "write a single text value";
  }
  if (expected === "array") {
    if (typeof value === "string") return `write it as a list: ${key}: [${JSON.stringify(value)}]`;
    return `write it as a list, e.g. ${key}: [a, b] or one "- item" line per entry`;
  }
  if (expected === "object" || expected === "record") return "write it as a mapping of key: value lines";
  return "fix the value";
}

/** Strips what wraps a schema without changing its keys: defaults, optionals, nullables, and pipes (to the side with keys). */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let inner = schema;
  for (let guard = 0; inner && guard < 10; guard++) {
    if (
      inner instanceof z.ZodDefault ||
      inner instanceof z.ZodPrefault ||
      inner instanceof z.ZodOptional ||
      inner instanceof z.ZodNullable
    )
      inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe)
      inner = (inner.out instanceof z.ZodTransform ? inner.in : inner.out) as z.ZodType;
    else break;
  }
  return inner;
}

/** Known keys of the object schema at `path`, walking through defaults, optionals, pipes, lists and records. */
export function knownKeysAt(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const segment of path) {
    current = unwrap(current);
    if (current instanceof z.ZodObject && typeof segment === "string") {
      const shape = current.shape as Record<string, z.ZodType>;
      current = Object.hasOwn(shape, segment) ? shape[segment] : undefined;
    } else if (current instanceof z.ZodArray && typeof segment === "number")
      current = current.element as z.ZodType;
    else if (current instanceof z.ZodRecord) current = current.valueType as z.ZodType;
    else return [];
  }
  current = unwrap(current);
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

type Issue = z.core.$ZodIssue;

function describeIssue(
  issue: Issue,
  value: unknown,
  path: PathSegment[],
): { text: string; keyPath: PathSegment[] } {
  const last = path[path.length - 1];
  const key = typeof last === "string" ? last : "key";
  switch (issue.code) {
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? `a ${issue.expected}`;
      if (value === undefined) {
        return { text: `missing, expected ${expected}; add ${key}: <value>`, keyPath: path };
      }
      return {
        text: `expected ${expected}, got ${describeValue(value)}; ${typeFix(issue.expected, value, key)}`,
        keyPath: path,
      };
    }
    case "invalid_value":
      return { text: enumText(issue.values, value), keyPath: path };
    case "invalid_union": {
      const values = issue.errors
        .flat()
        .flatMap((inner) => (inner.code === "invalid_value" ? inner.values : []));
      if (values.length > 0 && values.length === issue.errors.flat().length) {
        return { text: enumText(values, value), keyPath: path };
      }
      return {
        text: `${issue.message} (got ${describeValue(value)}); see the keys in docs/configuration.md`,
        keyPath: path,
      };
    }
    case "too_small":
    case "too_big": {
      const isSmall = issue.code === "too_small";
      const bound = isSmall ? issue.minimum : issue.maximum;
      if (issue.origin === "string" && isSmall) {
        return {
          text: `expected a non-empty string, got ${describeValue(value)}; write a value`,
          keyPath: path,
        };
      }
      const op = isSmall ? (issue.inclusive ? ">=" : ">") : issue.inclusive ? "<=" : "<";
      const fix = isSmall
        ? issue.inclusive
          ? `use ${String(bound)} or more`
          : `use a value above ${String(bound)}`
        : issue.inclusive
          ? `use ${String(bound)} or less`
          : `use a value below ${String(bound)}`;
      const what =
        issue.origin === "array"
          ? `a list with length ${op} ${String(bound)}`
          : `a number ${op} ${String(bound)}`;
      return { text: `expected ${what}, got ${describeValue(value)}; ${fix}`, keyPath: path };
    }
    default:
      return { text: `${issue.message} (got ${describeValue(value)}); fix the value`, keyPath: path };
  }
}

function enumText(values: readonly unknown[], value: unknown): string {
  const listed = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  const guess =
    typeof value === "string"
      ? closestName(
          value,
          values.filter((v): v is string => typeof v === "string"),
        )
      : undefined;
  const quotedNumber = typeof value === "string" && value.trim() !== "" && values.includes(Number(value));
  const fix = quotedNumber
    ? `write ${value.trim()} without quotes`
    : guess
      ? `did you mean ${guess}?`
      : `use one of ${listed}`;
  return `expected one of ${listed}, got ${describeValue(value)}; ${fix}`;
}

/** One problem per zod issue (one per unknown key), attributed to the layer that introduced the value. */
export function problemsFromIssues(
  issues: readonly Issue[],
  merged: Record<string, unknown>,
  layers: ConfigLayer[],
  schema: z.ZodType,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((s): s is PathSegment => typeof s === "string" || typeof s === "number");
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(schema, path);
      for (const unknownKey of issue.keys) {
        const keyPath = [...path, unknownKey];
        const layer = originLayer(layers, keyPath);
        const guess = closestName(unknownKey, known);
        const fix = guess
          ? `did you mean ${guess}?`
          : `remove it${known.length > 0 ? `; known keys here: ${known.join(", ")}` : ""}`;
        problems.push({
          source: layer?.source ?? "config",
          line: layer ? lineOf(layer, path, unknownKey) : undefined,
          keyPath: formatKeyPath(keyPath),
          text: `unknown key ${JSON.stringify(unknownKey)}; ${fix}`,
        });
      }
      continue;
    }
    const value = valueAt(merged, path);
    const described = describeIssue(issue, value, path);
    const layer = originLayer(layers, path);
    const ucagent = issue.code === "invalid_type" ? skillListSentence(path, value, merged) : null;
    problems.push({
      source: layer?.source ?? "config",
      line: layer ? lineOf(layer, path) : undefined,
      keyPath: formatKeyPath(described.keyPath),
      text: ucagent ? `${ucagent} (${described.text})` : described.text,
    });
  }
  return problems;
}

/** UCAgent's own sentence for a skill_list that is not a list of strings (ucagent/stage/vstage.py). */
function skillListSentence(
  path: PathSegment[],
  value: unknown,
  merged: Record<string, unknown>,
): string | null {
  if (path[0] !== "stage" || typeof path[1] !== "number" || path[2] !== "skill_list") return null;
  const name = valueAt(merged, ["stage", path[1], "name"]);
  const stage = `Stage '${typeof name === "string" ? name : `stage[${path[1]}]`}'`;
  if (path.length === 3) return `${stage} skill_list must be a list.`;
  if (path.length === 4)
    return `${stage} skill_list item must be a string: ${JSON.stringify(value) ?? String(value)}`;
  return null;
}

export function formatProblem(problem: ConfigProblem): string {
  const where = problem.line !== undefined ? `${problem.source}:${problem.line}` : problem.source;
  return `${where}: ${problem.keyPath}: ${problem.text}`;
}

export function problemsMessage(problems: ConfigProblem[]): string {
  if (problems.length === 1) return `invalid config: ${formatProblem(problems[0]!)}`;
  return `invalid config (${problems.length} problems):\n${problems.map((p) => `- ${formatProblem(p)}`).join("\n")}`;
}
