// Turns zod issues on the merged config into user-facing problems: file, line, key path, bad value and fix.
import type { z } from "zod";
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

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3))) return best;
  // A shortened key ("timeout" for "timeout_seconds") is a likely slip too.
  const lower = name.toLowerCase();
  return lower.length >= 3 ? known.find((candidate) => candidate.toLowerCase().startsWith(lower)) : undefined;
}

interface ZodDefLike {
  type: string;
  innerType?: ZodLike;
  in?: ZodLike;
  out?: ZodLike;
  element?: ZodLike;
  valueType?: ZodLike;
  shape?: Record<string, ZodLike>;
}
interface ZodLike {
  def: ZodDefLike;
}

/** Known keys of the object schema at `path`, walking through defaults, optionals, pipes, lists and records. */
export function knownKeysAt(schema: z.ZodType, path: readonly PathSegment[]): string[] {
  let current: ZodLike | undefined = schema as unknown as ZodLike;
  const unwrap = (node: ZodLike | undefined): ZodLike | undefined => {
    let inner = node;
    for (let guard = 0; inner && guard < 10; guard++) {
      const def: ZodDefLike = inner.def;
      if ((def.type === "default" || def.type === "optional" || def.type === "prefault") && def.innerType)
        inner = def.innerType;
      else if (def.type === "pipe") inner = def.out?.def.type === "transform" ? def.in : def.out;
      else break;
    }
    return inner;
  };
  for (const segment of path) {
    current = unwrap(current);
    if (!current) return [];
    const def = current.def;
    if (def.type === "object" && typeof segment === "string") current = def.shape?.[segment];
    else if (def.type === "array" && typeof segment === "number") current = def.element;
    else if (def.type === "record") current = def.valueType;
    else return [];
  }
  current = unwrap(current);
  return current?.def.type === "object" && current.def.shape ? Object.keys(current.def.shape) : [];
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
        text: `${issue.message} (got ${describeValue(value)}); see the schema in README`,
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
