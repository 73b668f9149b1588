// Loads a frontmatter block as UCAgent's PyYAML safe_load does (YAML 1.1 scalars, its errors), for ucagent and lenient mode.
import { createRequire } from "node:module";
import type { Document, DocumentOptions, ParseOptions, ScalarTag, SchemaOptions } from "yaml";
import { badTabOffset, NON_PRINTABLE } from "./strictyaml.js";
import {
  MAX_ALIAS_COUNT,
  PLAIN_ASCII,
  PLAIN_KEY_LINES,
  parseSimpleLines,
  parseSimpleMapping,
  type YamlParse,
} from "./yaml-block.js";

let yamlModule: typeof import("yaml") | null = null;
/** `yaml` loads on the first block the fast path declines: a scan of plain skills never loads it. */
function yaml(): typeof import("yaml") {
  yamlModule ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yamlModule;
}

// PyYAML's implicit resolvers (resolver.py), which differ from YAML 1.1 as the `yaml` package reads it:
// no y/n booleans, floats need a dot and a signed exponent, "08" is text, "=" and "<<" as values fail.
export const PY_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const PY_TRUE = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
export const PY_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
export const PY_INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const PY_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

/** PyYAML's construct_yaml_int, exact for any size. */
export function pyIntValue(source: string): bigint {
  let text = source.replace(/_/g, "");
  let sign = 1n;
  if (text[0] === "-" || text[0] === "+") {
    if (text[0] === "-") sign = -1n;
    text = text.slice(1);
  }
  if (text === "0") return 0n;
  if (text.startsWith("0b")) return sign * BigInt(text);
  if (text.startsWith("0x")) return sign * BigInt(text);
  if (text.startsWith("0")) return sign * BigInt(`0o${text.slice(1)}`);
  if (text.includes(":"))
    return sign * text.split(":").reduce((total, part) => total * 60n + BigInt(part), 0n);
  return sign * BigInt(text);
}

function pyFloatValue(source: string): number {
  let text = source.replace(/_/g, "").toLowerCase();
  let sign = 1;
  if (text[0] === "-" || text[0] === "+") {
    if (text[0] === "-") sign = -1;
    text = text.slice(1);
  }
  if (text === ".inf") return sign * Number.POSITIVE_INFINITY;
  if (text === ".nan") return Number.NaN;
  if (text.includes(":")) {
    const parts = text.split(":");
    return sign * parts.reduce((total, part) => total * 60 + Number.parseFloat(part), 0);
  }
  return sign * Number.parseFloat(text);
}

const PY_TAGS: ScalarTag[] = [
  {
    tag: "tag:yaml.org,2002:bool",
    default: true,
    identify: (value) => typeof value === "boolean",
    test: PY_BOOL,
    resolve: (source) => PY_TRUE.test(source),
  },
  {
    tag: "tag:yaml.org,2002:float",
    default: true,
    identify: (value) => typeof value === "number",
    test: PY_FLOAT,
    resolve: pyFloatValue,
  },
  {
    tag: "tag:yaml.org,2002:int",
    default: true,
    identify: (value) => typeof value === "number",
    test: PY_INT,
    resolve: (source) => Number(pyIntValue(source)),
  },
  {
    tag: "tag:yaml.org,2002:timestamp",
    default: true,
    identify: (value) => value instanceof Date,
    test: PY_TIMESTAMP,
    // Kept as its text: str() of Python's date is that text, and a Date would shift by time zone.
    resolve: (source) => source,
  },
];
const REPLACED = new Set(PY_TAGS.map((tag) => tag.tag));

const OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.1",
  uniqueKeys: false,
  prettyErrors: false,
  customTags: (tags) => [
    ...PY_TAGS,
    ...tags.filter((tag) => !(typeof tag === "object" && REPLACED.has(tag.tag))),
  ],
};

export type PyYamlResult = YamlParse & { document?: Document.Parsed; text?: string };

/**
 * yaml.safe_load of a frontmatter block: PyYAML's line breaks (NEL, U+2028, U+2029), its refusal of
 * non-printable characters and of tabs outside quoted/block scalars and comments, YAML 1.1 scalars as
 * its resolvers read them, merge keys, and an error for any tag it cannot construct (`!custom`,
 * `!!python/...`). Duplicate keys: the last wins. `fastPath: false` is for tests comparing the paths.
 */
export function loadPyYaml(source: string, options?: { fastPath?: boolean }): PyYamlResult {
  // Printable ASCII has no line break but \n and nothing PyYAML refuses: one test spares the two below.
  if (options?.fastPath !== false) {
    const keysChecked = PLAIN_KEY_LINES.test(source);
    if (keysChecked || PLAIN_ASCII.test(source)) {
      const fast = parseSimpleLines(source, keysChecked);
      if (fast !== null) return { ok: true, value: fast };
    }
  }
  const text = /[\u0085\u2028\u2029]/.test(source) ? source.replace(/[\u0085\u2028\u2029]/g, "\n") : source;
  const bad = NON_PRINTABLE.exec(text);
  if (bad) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    const before = text.slice(0, bad.index);
    return {
      ok: false,
      message: `unacceptable character U+${code}: control and special characters are not allowed in YAML (PyYAML refuses them even quoted); remove it`,
      line: before.split("\n").length,
      column: bad.index - before.lastIndexOf("\n"),
    };
  }
  if (options?.fastPath !== false) {
    const fast = parseSimpleMapping(text);
    if (fast !== null) return { ok: true, value: fast };
  }
  const { LineCounter, parseDocument, visit, isPair } = yaml();
  const lines = new LineCounter();
  const at = (message: string, offset: number): PyYamlResult => {
    const position = lines.linePos(offset);
    return { ok: false, message, line: position.line, column: position.col };
  };
  const document = parseDocument(text, { ...OPTIONS, lineCounter: lines });
  const error = document.errors[0];
  if (error?.code === "MULTIPLE_DOCS")
    return at(
      'a "---" or "..." line inside the frontmatter starts a second YAML document (PyYAML expects exactly one); remove that line',
      error.pos[0],
    );
  if (error) return at(error.message.split("\n")[0] ?? error.message, error.pos[0]);
  const unresolved = document.warnings.find((warning) => warning.code === "TAG_RESOLVE_FAILED");
  if (unresolved) {
    const tag = /^Unresolved tag: (\S+)/.exec(unresolved.message)?.[1] ?? "";
    return at(
      `could not determine a constructor for the tag ${tag} (PyYAML's safe_load builds only standard types); remove the tag`,
      unresolved.pos[0],
    );
  }
  const keyProblem = unacceptableKey(text, document);
  if (keyProblem) return at(keyProblem.message, keyProblem.offset);
  const tab = badTabOffset(text);
  if (tab !== null) return at("found a tab character that cannot start any token; use spaces", tab);
  let special: { source: string; offset: number } | null = null;
  visit(document, {
    Scalar(key, node, path) {
      if (node.type !== "PLAIN" || node.tag) return;
      const raw = text.slice(node.range?.[0] ?? 0, node.range?.[1] ?? 0);
      const parent = path[path.length - 1];
      const isKey = key === "key" && isPair(parent);
      if (raw === "=" || (raw === "<<" && !isKey)) {
        special = { source: raw, offset: node.range?.[0] ?? 0 };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (special) {
    const { source: raw, offset } = special as { source: string; offset: number };
    return at(
      `could not determine a constructor for the plain value ${JSON.stringify(raw)} (YAML 1.1 reads it as a special tag); quote it`,
      offset,
    );
  }
  try {
    return {
      ok: true,
      value: document.toJS({ mapAsMap: false, maxAliasCount: MAX_ALIAS_COUNT }),
      document,
      text,
    };
  } catch (cause) {
    // Not a syntax error but still bad input, e.g. an alias bomb ("Excessive alias count ...").
    return { ok: false, message: cause instanceof Error ? cause.message : String(cause), line: 1, column: 1 };
  }
}

/**
 * Keys PyYAML refuses and `yaml` accepts: a list or mapping as a key ("found unhashable key"), and an
 * implicit empty key (a line starting with ": "; an explicit "? " key may be empty).
 */
function unacceptableKey(
  text: string,
  document: Document.Parsed,
): { message: string; offset: number } | null {
  const { isCollection, visit, Parser } = yaml();
  let found: { message: string; offset: number } | null = null;
  visit(document, {
    Pair(_key, pair) {
      if (isCollection(pair.key)) {
        found = {
          message: "found unhashable key (a list or mapping cannot be a key)",
          offset: pair.key.range?.[0] ?? 0,
        };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (found) return found;
  if (!/(^|\n)[ ]*:/.test(text) && !text.includes("- :")) return null;
  const walk = (token: unknown): void => {
    if (found || token === null || typeof token !== "object") return;
    const item = token as {
      type?: string;
      offset?: number;
      items?: Array<{
        start: Array<{ type: string; offset: number }>;
        key?: unknown;
        sep?: Array<{ type: string; offset: number }>;
      }>;
    };
    if (item.type === "block-map") {
      for (const entry of item.items ?? []) {
        const explicit = entry.start.some((part) => part.type === "explicit-key-ind");
        const colon = entry.sep?.find((part) => part.type === "map-value-ind");
        if (!entry.key && !explicit && colon) {
          found = {
            message: "expected <block end>, but found ':' (a key is missing before the colon)",
            offset: colon.offset,
          };
          return;
        }
      }
    }
    for (const value of Object.values(item)) {
      if (Array.isArray(value)) for (const child of value) walk(child);
      else if (value !== null && typeof value === "object") walk(value);
    }
  };
  for (const token of new Parser().parse(text)) walk(token);
  return found;
}
