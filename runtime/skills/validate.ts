// Parses one SKILL.md in a validation mode (ucagent, strict, lenient) into data plus diagnostics; never throws on bad input.
import path from "node:path";
import { type SplitFailure, splitFrontmatter } from "./frontmatter.js";
import { quoteColonValues } from "./lenient.js";
import {
  checkSpecRules,
  MAX_DESCRIPTION_LENGTH,
  SPEC_ALLOWED_FIELDS,
  type SpecProblem,
} from "./spec-schema.js";
import { loadStrictFrontmatter } from "./strict.js";
import { codePointLength, describeValue, pyStrip, showValue, truncateCodePoints } from "./text.js";
import type { Diagnostic, Severity, ValidationMode } from "./types.js";
import { parseYamlBlock } from "./yaml-block.js";

/** UCAgent's MAX_SKILL_FILE_SIZE. */
export const MAX_SKILL_FILE_BYTES = 10 * 1024 * 1024;

export interface ParsedSkillFile {
  name: string;
  description: string;
  metadata: Record<string, string>;
  frontmatter: Record<string, unknown>;
  body: string;
}

export interface ParseResult {
  /** False when the skill must be skipped (or is invalid) in this mode. */
  ok: boolean;
  diagnostics: Diagnostic[];
  parsed?: ParsedSkillFile;
}

/** basename(dirname(file)) without the two intermediate strings path.* would build. */
function folderName(filePath: string): string {
  const end = filePath.lastIndexOf(path.sep);
  if (end <= 0) return path.basename(path.dirname(filePath));
  return filePath.slice(filePath.lastIndexOf(path.sep, end - 1) + 1, end);
}

// ignoreBOM keeps a BOM in the decoded text: ucagent and strict modes must see it to refuse it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses SKILL.md content; `filePath` names the file in diagnostics and its folder is the expected name. */
export function parseSkillFile(
  content: Buffer | string,
  filePath: string,
  mode: ValidationMode = "ucagent",
): ParseResult {
  const diagnostics: Diagnostic[] = [];
  const folder = folderName(filePath);
  const fail = (code: string, message: string): ParseResult => {
    diagnostics.push({ path: filePath, code, message, severity: "error" });
    return { ok: false, diagnostics };
  };
  const warn = (code: string, message: string): void => {
    diagnostics.push({ path: filePath, code, message, severity: "warning" });
  };

  const byteLength = typeof content === "string" ? Buffer.byteLength(content) : content.length;
  if (byteLength > MAX_SKILL_FILE_BYTES) {
    return fail(
      "TOO_LARGE",
      `SKILL.md is ${byteLength} bytes, over the 10 MiB limit (${MAX_SKILL_FILE_BYTES} bytes); move long material into references/ and keep SKILL.md short`,
    );
  }
  let text: string;
  if (typeof content === "string") text = content;
  else {
    try {
      text = utf8.decode(content);
    } catch {
      return fail(
        "NOT_UTF8",
        "SKILL.md is not valid UTF-8 (invalid byte sequence); re-save it with UTF-8 encoding",
      );
    }
  }
  if (mode === "lenient" && text.startsWith("\uFEFF")) {
    text = text.slice(1);
    warn(
      "BOM_STRIPPED",
      "SKILL.md starts with a UTF-8 byte order mark (BOM); ignored it in lenient mode — save the file without a BOM so other loaders accept it",
    );
  }

  const strict = mode === "strict";
  const loaded = strict ? loadStrict(text) : loadFrontmatter(text, mode, folder, warn);
  if (!loaded.ok) return fail(loaded.code, loaded.message);
  const { value, body } = loaded;
  if ("earlyEnd" in loaded && loaded.earlyEnd) warn("FRONTMATTER_ENDS_EARLY", loaded.earlyEnd);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail(
      "NOT_A_MAPPING",
      `the frontmatter is ${describeValue(value)}, not a mapping of fields; write it as "key: value" lines, e.g. name: ${folder}`,
    );
  }
  const frontmatter = value as Record<string, unknown>;

  const rawName = frontmatter.name;
  const rawDescription = frontmatter.description;
  const name = typeof rawName === "string" ? pyStrip(rawName) : "";
  // skills-ref checks the stripped, NFKC-normalised name; the record keeps the stripped name.
  const normalisedName = typeof rawName === "string" ? nfkc(name) : rawName;
  const specView = normalisedName === rawName ? frontmatter : { ...frontmatter, name: normalisedName };

  const problems = checkSpecRules(specView);
  if (typeof rawName === "string" && name !== "") {
    const folderKey = nfkc(folder);
    if (folderKey !== specView.name) problems.push({ rule: "NAME_MISMATCH", field: "name" });
  }
  let description = typeof rawDescription === "string" ? pyStrip(rawDescription) : "";
  for (const problem of problems) {
    const severity = severityFor(problem, mode);
    if (severity === null) continue;
    if (problem.rule === "DESCRIPTION_TOO_LONG" && !strict) continue; // measured on the stripped text below
    diagnostics.push({
      path: filePath,
      code: problem.rule,
      message: specMessage(problem, frontmatter, specView, folder, mode),
      severity,
    });
  }
  if (!strict && typeof rawDescription === "string") {
    const length = codePointLength(description);
    if (length > MAX_DESCRIPTION_LENGTH) {
      warn(
        "DESCRIPTION_TOO_LONG",
        `description is ${length} characters long, over the limit of ${MAX_DESCRIPTION_LENGTH}; loaded it truncated to ${MAX_DESCRIPTION_LENGTH} characters — shorten it and move details into the body`,
      );
      description = truncateCodePoints(description, MAX_DESCRIPTION_LENGTH);
    }
  }

  const metadata = stringifyMetadata(frontmatter.metadata, (kind) =>
    warn(
      "METADATA_NOT_MAPPING",
      `field "metadata" is ${kind}, not a mapping; ignored it — write "metadata:" followed by indented "key: value" lines`,
    ),
  );
  const ok = !diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return {
    ok,
    diagnostics,
    parsed: ok ? { name, description, metadata, frontmatter, body } : undefined,
  };
}

/** NFKC normalisation; ASCII text is already normalised, which spares the common case an allocation. */
function nfkc(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : text.normalize("NFKC");
}

/** Missing / non-string / empty name or description skip the skill in every mode; the rest depends on the mode. */
function severityFor(problem: SpecProblem, mode: ValidationMode): Severity | null {
  switch (problem.rule) {
    case "NAME_MISSING":
    case "NAME_NOT_STRING":
    case "NAME_EMPTY":
    case "DESCRIPTION_MISSING":
    case "DESCRIPTION_NOT_STRING":
    case "DESCRIPTION_EMPTY":
      return "error";
    case "UNKNOWN_FIELD":
    case "COMPATIBILITY_NOT_STRING":
    case "COMPATIBILITY_TOO_LONG":
      return mode === "strict" ? "error" : null;
    case "ALLOWED_TOOLS_INVALID":
      // skills-ref does not check allowed-tools, so strict mode warns without changing the verdict.
      return mode === "strict" ? "warning" : null;
    default:
      return mode === "strict" ? "error" : "warning";
  }
}

function specMessage(
  problem: SpecProblem,
  frontmatter: Record<string, unknown>,
  specView: Record<string, unknown>,
  folder: string,
  mode: ValidationMode,
): string {
  const name = String(specView.name ?? "");
  const quotedName = JSON.stringify(name);
  const folderName = folder.normalize("NFKC");
  const renameHint = mode === "strict" ? "" : " (loaded anyway)";
  switch (problem.rule) {
    case "NAME_MISSING":
      return `required field "name" is missing; add name: ${folderName}`;
    case "NAME_NOT_STRING":
      return `field "name" must be a string, got ${describeValue(frontmatter.name)}; write it as text, e.g. name: ${folderName}`;
    case "NAME_EMPTY":
      return `field "name" is empty; set it to the folder name: name: ${folderName}`;
    case "NAME_TOO_LONG":
      return `name ${quotedName} is ${codePointLength(name)} characters long, over the limit of 64${renameHint}; shorten it and rename the folder to match`;
    case "NAME_NOT_LOWERCASE":
      return `name ${quotedName} has uppercase letters${renameHint}; use ${JSON.stringify(name.toLowerCase())} and rename the folder to match`;
    case "NAME_HYPHEN_EDGE":
      return `name ${quotedName} starts or ends with "-"${renameHint}; remove the leading or trailing hyphen`;
    case "NAME_DOUBLE_HYPHEN":
      return `name ${quotedName} contains "--"${renameHint}; use single hyphens between words`;
    case "NAME_INVALID_CHARS": {
      const bad = [...new Set(Array.from(name).filter((char) => !/^[\p{L}\p{N}-]$/u.test(char)))];
      return `name ${quotedName} contains ${bad.map((char) => JSON.stringify(char)).join(", ")}${renameHint}; use only lowercase letters, digits and single hyphens`;
    }
    case "NAME_MISMATCH":
      return `name ${quotedName} does not match the folder name ${JSON.stringify(folderName)} (compared after NFKC normalisation)${renameHint}; set name: ${folderName} or rename the folder to ${quotedName}`;
    case "DESCRIPTION_MISSING":
      return 'required field "description" is missing; add description: <what the skill does and when to use it>';
    case "DESCRIPTION_NOT_STRING":
      return `field "description" must be a string, got ${describeValue(frontmatter.description)}; quote it: description: "<what the skill does and when to use it>"`;
    case "DESCRIPTION_EMPTY":
      return 'field "description" is empty; describe what the skill does and when to use it';
    case "DESCRIPTION_TOO_LONG":
      return `description is ${codePointLength(String(frontmatter.description))} characters long, over the limit of ${MAX_DESCRIPTION_LENGTH}; shorten it and move details into the body`;
    case "COMPATIBILITY_NOT_STRING":
      return `field "compatibility" must be a string, got ${describeValue(frontmatter.compatibility)}; write it as one quoted string`;
    case "COMPATIBILITY_TOO_LONG":
      return `compatibility is ${codePointLength(String(frontmatter.compatibility))} characters long, over the limit of 500; shorten it`;
    case "ALLOWED_TOOLS_INVALID":
      return `field "allowed-tools" must be a string or a list of strings, got ${describeValue(frontmatter["allowed-tools"])}; write e.g. allowed-tools: "Read Bash"`;
    case "UNKNOWN_FIELD":
      return `unknown frontmatter field "${problem.field}" (value ${showValue(frontmatter[problem.field])}); the Agent Skills spec allows only ${SPEC_ALLOWED_FIELDS.join(", ")} — move it under "metadata:" or remove it`;
    default:
      return `frontmatter field "${problem.field}" breaks rule ${problem.rule}`;
  }
}

/** UCAgent's _validate_metadata: a mapping's values become strings; anything else is ignored with a warning. */
function stringifyMetadata(raw: unknown, onNotMapping: (kind: string) => void): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    onNotMapping(describeValue(raw));
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>))
    result[key] = metadataString(value);
  return result;
}

/** Strings as they are, null as "", numbers and booleans in their YAML spelling, lists/mappings as JSON. */
export function metadataString(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
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

type Loaded =
  | { ok: true; value: unknown; body: string; earlyEnd?: string }
  | { ok: false; code: string; message: string };

function loadStrict(text: string): Loaded {
  if (text.startsWith("\uFEFF")) {
    return {
      ok: false,
      code: "BOM",
      message:
        'SKILL.md starts with a UTF-8 byte order mark (BOM), so it does not start with "---"; save the file as UTF-8 without BOM',
    };
  }
  return loadStrictFrontmatter(text);
}

/** The ucagent and lenient loaders: UCAgent's frontmatter split, then YAML (lenient retries quoted values). */
function loadFrontmatter(
  text: string,
  mode: ValidationMode,
  folder: string,
  warn: (code: string, message: string) => void,
): Loaded {
  const split = splitFrontmatter(text);
  if (!split.ok)
    return { ok: false, code: split.code, message: splitMessage(split.code, split.firstLine, folder) };
  let yaml = parseYamlBlock(split.yaml, { uniqueKeys: false });
  if (!yaml.ok && mode === "lenient") {
    const repaired = quoteColonValues(split.yaml);
    if (repaired.fixes.length > 0) {
      const retry = parseYamlBlock(repaired.yaml, { uniqueKeys: false });
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
  return { ok: true, value: yaml.value, body: split.body };
}
