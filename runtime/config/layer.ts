// Reads one config layer: a YAML file parsed into a plain mapping, keeping the document to point at lines.
import { readFile } from "node:fs/promises";
import { type Document, LineCounter, parseDocument } from "yaml";
import { readSmallFile, refusalReason } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";

export type PathSegment = string | number;

export interface ConfigLayer {
  /** Absolute file path, or a label such as "command-line flags". */
  source: string;
  /** True when source is a file (messages then point at a line). */
  isFile: boolean;
  data: Record<string, unknown>;
  document?: Document;
  lineCounter?: LineCounter;
}

export type ReadText = (file: string) => Promise<string>;

/** Any readable file, a pipe included: for --config FILE, the user's own argument (`--config <(...)` is a pipe). */
export const readAnyFile: ReadText = (file) => readFile(file, "utf8");

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads and parses a YAML config file. Returns null when the file does not exist and `optional` is set;
 * throws PATH_NOT_FOUND for a missing required file, CONFIG_UNREADABLE for IO or syntax errors and
 * CONFIG_INVALID when the top level is not a mapping.
 */
export async function readYamlLayer(
  file: string,
  opts: { optional: boolean; role: string; readText?: ReadText },
): Promise<ConfigLayer | null> {
  const text = await readLayerText(file, opts);
  return text === null ? null : parseYamlLayer(text, file, opts.role);
}

/** The text of a config file, with readYamlLayer's errors; null when an optional file does not exist. */
export async function readLayerText(
  file: string,
  opts: { optional: boolean; role: string; readText?: ReadText },
): Promise<string | null> {
  try {
    // The files skillgate finds by itself (home, workspace) are regular files only: an agent can plant a FIFO there.
    return await (opts.readText ?? readSmallFile)(file);
  } catch (error) {
    const refused = refusalReason(error);
    if (refused !== null) {
      throw new SkillgateError(
        "CONFIG_UNREADABLE",
        `cannot read ${opts.role} ${file}: ${refused}; make it a readable YAML file`,
        { file, ...(error as SkillgateError).details },
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && opts.optional) return null;
    if (code === "ENOENT") {
      throw new SkillgateError("PATH_NOT_FOUND", `${opts.role} ${file} does not exist; check the path`, {
        file,
      });
    }
    const reason = code === "EISDIR" ? "it is a folder, not a file" : (error as Error).message;
    throw new SkillgateError(
      "CONFIG_UNREADABLE",
      `cannot read ${opts.role} ${file}: ${reason}; make it a readable YAML file`,
      { file },
    );
  }
}

export function parseYamlLayer(text: string, file: string, role = "config file"): ConfigLayer {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const first = document.errors[0];
  if (first) {
    const pos = first.pos ? lineCounter.linePos(first.pos[0]) : undefined;
    const where = pos ? `${file}:${pos.line}` : file;
    const reason = first.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "");
    throw new SkillgateError(
      "CONFIG_UNREADABLE",
      `cannot parse ${role} ${where}: ${reason}; fix the YAML syntax there (indentation, quoting, duplicate keys)`,
      { file, line: pos?.line },
    );
  }
  const data: unknown = document.toJS();
  if (data === null || data === undefined)
    return { source: file, isFile: true, data: {}, document, lineCounter };
  if (!isMapping(data)) {
    const got = Array.isArray(data) ? "a list" : `${JSON.stringify(data)} (a ${typeof data})`;
    throw new SkillgateError(
      "CONFIG_INVALID",
      `invalid config: ${file}:1: the top level must be a mapping of key: value lines, got ${got}; start the file with keys such as skill: or stage:`,
      { file },
    );
  }
  return { source: file, isFile: true, data, document, lineCounter };
}

/** Line (1-based) of the deepest node of `path` that exists in the layer's document. */
export function lineOf(layer: ConfigLayer, path: PathSegment[], key?: string): number | undefined {
  const { document, lineCounter } = layer;
  if (!document || !lineCounter) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = document.getIn(path.slice(0, depth), true) as
      | { range?: [number, number, number]; items?: unknown[] }
      | undefined;
    if (!node || typeof node !== "object") continue;
    if (key !== undefined && depth === path.length && Array.isArray(node.items)) {
      for (const item of node.items as { key?: { value?: unknown; range?: [number, number, number] } }[]) {
        if (item?.key?.value === key && item.key.range) return lineCounter.linePos(item.key.range[0]).line;
      }
    }
    if (node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
