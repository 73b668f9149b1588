// UCAgent's loader for ucagent and lenient mode: its frontmatter split, PyYAML safe_load, and its required-field test.
import type { Document } from "yaml";
import { type SplitFailure, splitFrontmatter } from "./frontmatter.js";
import { quoteColonValues } from "./lenient.js";
import { isPlainMapping, pyStr, pyTruthy } from "./pystr.js";
import { loadPyYaml } from "./pyyaml.js";
import { describeValue, showValue } from "./text.js";
import type { ValidationMode } from "./types.js";

export type UcagentLoaded =
  | { ok: true; value: unknown; body: string; document?: Document.Parsed; yamlText?: string }
  | { ok: false; code: string; message: string };

/** The ucagent and lenient loaders: UCAgent's frontmatter split, then YAML (lenient retries quoted values). */
export function loadUcagentFrontmatter(
  text: string,
  mode: ValidationMode,
  folder: string,
  warn: (code: string, message: string) => void,
): UcagentLoaded {
  const split = splitFrontmatter(text);
  if (!split.ok)
    return { ok: false, code: split.code, message: splitMessage(split.code, split.firstLine, folder) };
  let yaml = loadPyYaml(split.yaml);
  if (!yaml.ok && mode === "lenient") {
    const repaired = quoteColonValues(split.yaml);
    if (repaired.fixes.length > 0) {
      const retry = loadPyYaml(repaired.yaml);
      if (retry.ok) {
        yaml = retry;
        for (const fix of repaired.fixes) {
          const line = split.yamlLine + fix.line - 1;
          warn(
            "YAML_COLON_QUOTED",
            `value of "${fix.key}" on line ${line} contains ": " and is not valid plain YAML; loaded it as the string ${JSON.stringify(fix.value)} — quote it in SKILL.md: ${fix.key}: ${JSON.stringify(fix.value)}`,
          );
        }
      }
    }
  }
  if (!yaml.ok) {
    const line = split.yamlLine + yaml.line - 1;
    return {
      ok: false,
      code: "YAML_ERROR",
      message: `invalid YAML in the frontmatter at line ${line}, column ${yaml.column}: ${yaml.message}; fix the YAML syntax (quote values that contain ": " or start with a special character)`,
    };
  }
  return { ok: true, value: yaml.value, body: split.body, document: yaml.document, yamlText: yaml.text };
}

function splitMessage(code: SplitFailure, firstLine: string, folder: string): string {
  switch (code) {
    case "BOM":
      return 'SKILL.md starts with a UTF-8 byte order mark (BOM), so its first line is not exactly "---"; save the file as UTF-8 without BOM';
    case "BLANK_FIRST_LINE":
      return 'the first line of SKILL.md is blank; the frontmatter must start on line 1 with exactly "---" — remove the leading blank lines';
    case "NO_FRONTMATTER":
      return `no YAML frontmatter: the first line is ${showValue(firstLine.replace(/\r$/, ""))}, expected exactly "---"; start SKILL.md with "---", then name: and description:, then a closing "---" line`;
    case "UNCLOSED_FRONTMATTER":
      return 'the frontmatter opened with "---" on line 1 is never closed; add a line with exactly "---" after the last field';
    case "CLOSING_NO_NEWLINE":
      return 'the closing "---" line of the frontmatter has no newline after it; end that line with a newline';
    case "EMPTY_FRONTMATTER":
      return `the frontmatter block is empty; add name: ${folder.normalize("NFKC")} and description: <what the skill does and when to use it> between the "---" lines`;
  }
}

export interface RequiredField {
  /** Python's str() of the value, as UCAgent keeps it (not stripped). */
  text: string;
  /** Set when the value is not a string (UCAgent lists it through str()). */
  notString?: string;
}

/**
 * UCAgent's `if not name or not description`: a missing or falsy value (None, "", False, 0, [], {})
 * skips the skill; any other value is listed through str(), whitespace-only strings included.
 */
export function ucagentRequired(
  frontmatter: Record<string, unknown>,
  field: "name" | "description",
  folder: string,
  loaded: { document?: Document.Parsed; yamlText?: string },
): { ok: true; value: RequiredField } | { ok: false; code: string; message: string } {
  const value = frontmatter[field];
  // The common case (a non-empty string) returns before any message text is built.
  if (typeof value === "string" && value !== "") return { ok: true, value: { text: value } };
  const upper = field.toUpperCase();
  const fix =
    field === "name"
      ? `set it to the folder name: name: ${folder.normalize("NFKC")}`
      : "describe what the skill does and when to use it";
  if (value === undefined) {
    return {
      ok: false,
      code: `${upper}_MISSING`,
      message:
        field === "name"
          ? `required field "name" is missing; add name: ${folder.normalize("NFKC")}`
          : 'required field "description" is missing; add description: <what the skill does and when to use it>',
    };
  }
  if (!pyTruthy(value)) {
    const what =
      value === null || value === ""
        ? "empty"
        : `${describeValue(value)}, which UCAgent treats as empty${typeof value === "boolean" ? " (YAML 1.1 reads yes/no/on/off as booleans: quote the text)" : ""}`;
    return { ok: false, code: `${upper}_EMPTY`, message: `field "${field}" is ${what}; ${fix}` };
  }
  if (typeof value === "string") return { ok: true, value: { text: value } };
  const text = pyStr(value, scalarSource(loaded, field));
  return {
    ok: true,
    value: {
      text,
      notString: `field "${field}" is ${describeValue(value)}, not text; loaded as ${showValue(text)} (Python's str(), as UCAgent) — quote it in SKILL.md`,
    },
  };
}

/** The top-level scalar of `key` as written, so str() can tell 1 from 1.0 and keep big integers. */
function scalarSource(
  loaded: { document?: Document.Parsed; yamlText?: string },
  key: string,
): string | undefined {
  const contents = loaded.document?.contents as { items?: Array<{ key?: unknown; value?: unknown }> } | null;
  const pair = contents?.items?.find((item) => (item.key as { value?: unknown } | null)?.value === key);
  const node = pair?.value as { range?: [number, number, number]; type?: string } | undefined;
  if (!node?.range || node.type !== "PLAIN" || loaded.yamlText === undefined) return undefined;
  return loaded.yamlText.slice(node.range[0], node.range[1]);
}

export { isPlainMapping };
