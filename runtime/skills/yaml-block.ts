// Parses a frontmatter YAML block: a fast path for the plain `key: value` shape, the `yaml` package otherwise.
import { createRequire } from "node:module";

type YamlModule = typeof import("yaml");
let yamlModule: YamlModule | null = null;
/** `yaml` loads on the first block the fast path declines: a scan of plain skills never loads it. */
function yamlPackage(): YamlModule {
  yamlModule ??= createRequire(import.meta.url)("yaml") as YamlModule;
  return yamlModule;
}

export type YamlParse =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number };

export interface YamlOptions {
  /** Duplicate keys are an error (strict) or last-one-wins like PyYAML's safe_load (ucagent, lenient). */
  uniqueKeys: boolean;
}

/**
 * Aliases a frontmatter may expand to (yaml's default): an alias bomb is a YAML error, not a hang.
 * Every loader of SKILL.md YAML (parseYamlBlock, pyyaml.ts) uses this one limit.
 */
export const MAX_ALIAS_COUNT = 100;

export function parseYamlBlock(yaml: string, options: YamlOptions): YamlParse {
  const fast = parseSimpleMapping(yaml);
  if (fast !== null) return { ok: true, value: fast };
  const { parse, YAMLParseError } = yamlPackage();
  try {
    return {
      ok: true,
      value: parse(yaml, {
        uniqueKeys: options.uniqueKeys,
        prettyErrors: true,
        maxAliasCount: MAX_ALIAS_COUNT,
      }),
    };
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const position = error.linePos?.[0];
      const firstLine = error.message.split("\n")[0] ?? error.message;
      return {
        ok: false,
        message: firstLine.replace(/ at line \d+, column \d+:?$/, ""),
        line: position?.line ?? 1,
        column: position?.col ?? 1,
      };
    }
    // Not a syntax error but still bad input, e.g. an alias bomb ("Excessive alias count ...").
    return { ok: false, message: error instanceof Error ? error.message : String(error), line: 1, column: 1 };
  }
}

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/**
 * Plain words that are not strings: null and booleans of the YAML 1.2 core schema and of PyYAML's YAML 1.1
 * resolvers (yes/no/on/off), which the ucagent and lenient loaders follow.
 */
const NON_STRING_WORDS = new Set([
  "null",
  "Null",
  "NULL",
  "true",
  "True",
  "TRUE",
  "false",
  "False",
  "FALSE",
  "yes",
  "Yes",
  "YES",
  "no",
  "No",
  "NO",
  "on",
  "On",
  "ON",
  "off",
  "Off",
  "OFF",
]);

const LONGEST_NON_STRING_WORD = Math.max(...[...NON_STRING_WORDS].map((word) => word.length));

// Why hand-written: plain skills never load `yaml` (`catalog` loads neither zod nor yaml, test/cli/lazy-verbs.test.ts; cold 2,000-skill scan 1.58x the raw readdir+read floor, docs/performance.md).
/**
 * The fast path: a mapping of `key: value` lines (one level of nesting under an empty `key:`), each
 * value a plain scalar that the core schema resolves to a string, or a simple quoted string. Any other
 * shape returns null so the full parser decides. Results are identical to `yaml`'s (see the
 * differential test in test/skills/yaml-block.test.ts).
 */
export function parseSimpleMapping(yaml: string): Record<string, unknown> | null {
  // Tabs, control characters and BOMs have their own YAML rules; let the full parser decide. So do the
  // Unicode spaces JS trim() would strip but YAML keeps as text (U+00A0, U+3000, ...).
  if (
    /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(
      yaml,
    )
  )
    return null;
  return parseSimpleLines(yaml);
}

/** Printable ASCII and newlines only: none of the characters parseSimpleMapping (or PyYAML) treats specially. */
export const PLAIN_ASCII = /^[\n\x20-\x7e]*$/;
/**
 * PLAIN_ASCII whose every non-blank line starts with a KEY and its colon: one test instead of one KEY test per line
 * (0.99x a cold catalog's Ir). A text that fails it may still be plain; parseSimpleLines then tests each key.
 */
export const PLAIN_KEY_LINES =
  /^(?:[ ]*(?:[A-Za-z_][A-Za-z0-9_-]*:[\x20-\x7e]*)?\n)*[ ]*(?:[A-Za-z_][A-Za-z0-9_-]*:[\x20-\x7e]*)?$/;

/**
 * parseSimpleMapping of a text known to pass its character test (e.g. PLAIN_ASCII): the line parser alone.
 * `keysChecked`: the text passed PLAIN_KEY_LINES, so every key matches KEY.
 */
export function parseSimpleLines(yaml: string, keysChecked = false): Record<string, unknown> | null {
  const result: Record<string, unknown> = {};
  let nested: Record<string, string> | null = null;
  let nestedIndent = 0;
  let start = 0;
  const length = yaml.length;
  // After the character test the only whitespace left is " ", "\r" and "\n": lines are measured by index, with one
  // slice for the key and one for the value (no per-line trimEnd/trimStart copies). A "\r" other than a line's last
  // character declines, as before; the next one is tracked so the search stays linear.
  let nextCr = yaml.indexOf("\r");
  while (start < length) {
    let end = yaml.indexOf("\n", start);
    if (end === -1) end = length;
    const lineStart = start;
    start = end + 1;
    let lineEnd = end;
    if (nextCr !== -1) {
      if (lineEnd > lineStart && yaml.charCodeAt(lineEnd - 1) === 13) lineEnd--;
      while (nextCr !== -1 && nextCr < lineStart) nextCr = yaml.indexOf("\r", nextCr + 1);
      if (nextCr !== -1 && nextCr < lineEnd) return null;
    }
    let last = lineEnd;
    while (last > lineStart && yaml.charCodeAt(last - 1) === 32) last--;
    if (last === lineStart) continue;
    let keyStart = lineStart;
    while (yaml.charCodeAt(keyStart) === 32) keyStart++;
    const indent = keyStart - lineStart;
    if (yaml.charCodeAt(keyStart) === 35) return null; // "#"
    const colon = yaml.indexOf(":", keyStart);
    if (colon === -1 || colon >= last) return null;
    const key = yaml.slice(keyStart, colon);
    if ((!keysChecked && !KEY.test(key)) || NON_STRING_WORDS.has(key) || key === "__proto__") return null;
    if (indent === 0) {
      nested = null;
      if (Object.hasOwn(result, key)) return null;
      if (colon + 1 === last) {
        nested = {};
        nestedIndent = 0;
        result[key] = nested;
        continue;
      }
      const value = simpleValue(yaml, colon + 1, last);
      if (value === null) return null;
      result[key] = value;
      continue;
    }
    if (nested === null) return null;
    if (nestedIndent === 0) nestedIndent = indent;
    if (indent !== nestedIndent || Object.hasOwn(nested, key)) return null;
    const value = simpleValue(yaml, colon + 1, last);
    if (value === null) return null;
    nested[key] = value;
  }
  for (const value of Object.values(result)) {
    // `key:` with nothing under it is null in YAML, not an empty mapping.
    if (typeof value === "object" && value !== null && Object.keys(value).length === 0) return null;
  }
  return result;
}

/**
 * The value in `yaml` from `from` (just after the key's colon) to `last` (right-trimmed); the string or null when
 * unsure. Measured by index, one slice: only " " is left as whitespace here (see parseSimpleLines), so this equals
 * the slice + trimStart copies it replaces.
 */
function simpleValue(yaml: string, from: number, last: number): string | null {
  if (from >= last || yaml.charCodeAt(from) !== 32) return null;
  let start = from + 1;
  while (start < last && yaml.charCodeAt(start) === 32) start++;
  if (start === last) return null;
  const text = yaml.slice(start, last);
  const first = text[0] as string;
  if (first === '"') {
    if (text.length < 2 || !text.endsWith('"')) return null;
    const inner = text.slice(1, -1);
    return /["\\]/.test(inner) ? null : inner;
  }
  if (first === "'") {
    if (text.length < 2 || !text.endsWith("'")) return null;
    const inner = text.slice(1, -1);
    return inner.includes("'") ? null : inner;
  }
  // "=" and "<<" are special in YAML 1.1 (PyYAML's value and merge tags).
  if ("-?:,[]{}#&*!|>%@`~+.0123456789=<".includes(first)) return null;
  if (text.includes(": ") || text.includes(" #") || text.endsWith(":")) return null;
  // A value longer than every such word (a description) is not hashed for the lookup.
  if (text.length <= LONGEST_NON_STRING_WORD && NON_STRING_WORDS.has(text)) return null;
  return text;
}
