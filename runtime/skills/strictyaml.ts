// Loads a frontmatter block the way skills-ref does (strictyaml on ruamel): only block YAML, every scalar a string.
import { createRequire } from "node:module";
import type { CST, LineCounter } from "yaml";

let yamlModule: typeof import("yaml") | null = null;
/** Loaded on the first strict parse, so the other modes' start-up (and every scan) never loads `yaml`. */
function yaml(): typeof import("yaml") {
  yamlModule ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yamlModule;
}

export type StrictYamlResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; line: number; column: number };

/** ruamel's and PyYAML's Reader refuse these code points anywhere in the stream (even quoted). */
export const NON_PRINTABLE = /[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

class StrictYamlError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * strictyaml.load(text).data: a mapping/list of strings, or the raw text itself when the document is a
 * single scalar or empty (skills-ref then reports "not a mapping"). Refused like strictyaml: flow
 * collections ("JSONesque"), tags, anchors and aliases, duplicate keys, complex keys, sibling mapping
 * values indented differently, and tabs outside quoted/block scalars and comments (ruamel's scanner).
 */
export function loadStrictYaml(source: string): StrictYamlResult {
  const { isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const fail = (message: string, offset: number): StrictYamlResult => {
    const position = lines.linePos(offset);
    return { ok: false, message, line: position.line, column: position.col };
  };
  const text = source.includes("\u0085") ? expandNel(source) : source;
  const bad = NON_PRINTABLE.exec(text);
  if (bad) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    lines.addNewLine(0);
    for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
      lines.addNewLine(index + 1);
    return fail(
      `control or non-character U+${code} is not allowed in YAML; remove it or write it as an escape in a double-quoted string`,
      bad.index,
    );
  }
  const document = parseDocument(text, {
    schema: "failsafe",
    uniqueKeys: false,
    lineCounter: lines,
    prettyErrors: false,
  });
  const error = document.errors[0];
  if (error) return fail(error.message.split("\n")[0] ?? error.message, error.pos[0]);
  try {
    const tab = badTabOffset(text);
    if (tab !== null)
      throw new StrictYamlError("tab character outside a quoted or block scalar or comment; use spaces", tab);
    if (document.contents === null) return { ok: true, value: source };
    if (isScalar(document.contents) && !document.contents.anchor && !document.contents.tag)
      return { ok: true, value: source };
    return { ok: true, value: toData(document.contents, lines) };
  } catch (cause) {
    if (cause instanceof StrictYamlError) return fail(cause.message, cause.offset);
    throw cause;
  }
}

/**
 * ruamel folds a NEL (U+0085) like a line break but does not reset its column count, so what follows
 * continues at the NEL's column + 1: a newline plus that many spaces reads the same (U+2028/9 stay text).
 */
function expandNel(text: string): string {
  let column = 0;
  let out = "";
  for (const char of text) {
    if (char === "\n") {
      column = 0;
      out += char;
    } else if (char === "\u0085") {
      out += `\n${" ".repeat(column + 1)}`;
      column += 1;
    } else {
      column += 1;
      out += char;
    }
  }
  return out;
}

function offsetOf(node: { range?: [number, number, number] | null }): number {
  return node.range?.[0] ?? 0;
}

function toData(node: unknown, lines: LineCounter): unknown {
  const { isAlias, isMap, isScalar, isSeq, Scalar } = yaml();
  if (isAlias(node))
    throw new StrictYamlError("aliases (*name) are not allowed; write the value out", offsetOf(node));
  if (isScalar(node) || isMap(node) || isSeq(node)) {
    if (node.anchor)
      throw new StrictYamlError("anchors (&name) are not allowed; remove the anchor", offsetOf(node));
    if (node.tag)
      throw new StrictYamlError(
        "tags (!!str, !name) are not allowed, every value is text; remove the tag",
        offsetOf(node),
      );
  }
  if (isScalar(node)) return node.value === null ? "" : String(node.value);
  if (isSeq(node)) {
    if (node.flow) throw flowError(node);
    return node.items.map((item) => toData(item, lines));
  }
  if (isMap(node)) {
    if (node.flow) throw flowError(node);
    const result: Record<string, unknown> = {};
    let mappingColumn: number | null = null;
    for (const pair of node.items) {
      const key = pair.key;
      if (key !== null && !isScalar(key))
        throw new StrictYamlError(
          "complex (non-scalar) keys are not allowed; use plain text keys",
          offsetOf(node),
        );
      const keyText = key === null ? "" : String(toData(key, lines));
      const value = pair.value;
      if (key !== null && key.type === Scalar.PLAIN && keyText === "<<") {
        // A merge key: ruamel merges it away (its keys do not reach .data); it must be a mapping or list of them.
        const mergeable =
          isMap(value) ||
          (isSeq(value) && value.items.length > 0 && value.items.every((item) => isMap(item)));
        if (!mergeable)
          throw new StrictYamlError(
            "a merge key (<<) needs a mapping or a list of mappings; quote the key if it is text",
            offsetOf(key),
          );
        toData(value, lines);
        continue;
      }
      if (Object.hasOwn(result, keyText))
        throw new StrictYamlError(
          `duplicate key ${JSON.stringify(keyText)}; keep one of them`,
          offsetOf(key ?? node),
        );
      if (isMap(value)) {
        const column = lines.linePos(offsetOf(value)).col;
        if (mappingColumn === null) mappingColumn = column;
        else if (column !== mappingColumn)
          throw new StrictYamlError(
            "this mapping is indented differently from the previous mapping value; indent sibling mappings alike",
            offsetOf(value),
          );
      }
      Object.defineProperty(result, keyText, {
        value: value === null ? "" : toData(value, lines),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  }
  return "";
}

function flowError(node: { range?: [number, number, number] | null }): StrictYamlError {
  return new StrictYamlError(
    "flow-style collections ([...] or {...}) are not allowed (strictyaml's disallowed JSONesque flow); write a block list or quote the text",
    offsetOf(node),
  );
}

/**
 * ruamel's and PyYAML's scanners take a tab as text only inside quoted scalars, comments and block scalar
 * content (past the indentation); anywhere else (after a colon, in a plain value, as indentation) it is an
 * error. Returns the offset of the first such tab, or null.
 */
export function badTabOffset(text: string): number | null {
  if (!text.includes("\t")) return null;
  const allowed: Array<[number, number]> = [];
  const visit = (token: unknown): void => {
    if (token === null || typeof token !== "object") return;
    const item = token as { type?: string; offset?: number; source?: string; props?: CST.SourceToken[] };
    if (
      (item.type === "single-quoted-scalar" ||
        item.type === "double-quoted-scalar" ||
        item.type === "comment") &&
      typeof item.offset === "number" &&
      typeof item.source === "string"
    ) {
      allowed.push([item.offset, item.offset + item.source.length]);
    } else if (item.type === "block-scalar" && typeof item.source === "string") {
      const last = item.props?.[item.props.length - 1];
      const start = last ? last.offset + last.source.length : (item.offset ?? 0);
      allowBlockContent(item.source, start, allowed);
    }
    for (const value of Object.values(item)) {
      if (Array.isArray(value)) for (const child of value) visit(child);
      else if (value !== null && typeof value === "object") visit(value);
    }
  };
  for (const token of new (yaml().Parser)().parse(text)) visit(token);
  for (let index = text.indexOf("\t"); index !== -1; index = text.indexOf("\t", index + 1)) {
    if (!allowed.some(([from, to]) => index >= from && index < to)) return index;
  }
  return null;
}

function allowBlockContent(source: string, start: number, allowed: Array<[number, number]>): void {
  const lineList = source.split("\n");
  const firstContent = lineList.find((line) => line.trim() !== "");
  const indent = firstContent ? firstContent.length - firstContent.replace(/^ +/, "").length : 0;
  let offset = start;
  for (const line of lineList) {
    const leading = line.length - line.replace(/^ +/, "").length;
    if (leading >= indent && line.slice(leading).trim() !== "")
      allowed.push([offset + indent, offset + line.length]);
    offset += line.length + 1;
  }
}
