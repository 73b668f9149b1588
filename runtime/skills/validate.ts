// Parses one SKILL.md in a validation mode (ucagent, strict, lenient) into data plus diagnostics; never throws on bad input.
import path from "node:path";
import type { Document } from "yaml";
import { stringifyMetadata } from "./metadata.js";
import { isPlainMapping } from "./pystr.js";
import {
  checkSpecRules,
  MAX_DESCRIPTION_LENGTH,
  SPEC_ALLOWED_FIELDS,
  type SpecProblem,
} from "./spec-schema.js";
import { loadStrictFrontmatter } from "./strict.js";
import { codePointLength, describeValue, pyStrip, showValue, truncateCodePoints } from "./text.js";
import type { Diagnostic, Severity, ValidationMode } from "./types.js";
import { loadUcagentFrontmatter, ucagentRequired } from "./ucagent.js";

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
  const loaded: Loaded = strict ? loadStrict(text) : loadUcagentFrontmatter(text, mode, folder, warn);
  if (!loaded.ok) return fail(loaded.code, loaded.message);
  const { value, body } = loaded;
  if (loaded.earlyEnd) warn("FRONTMATTER_ENDS_EARLY", loaded.earlyEnd);
  if (!isPlainMapping(value)) {
    return fail(
      "NOT_A_MAPPING",
      `the frontmatter is ${describeValue(value)}, not a mapping of fields; write it as "key: value" lines, e.g. name: ${folder}`,
    );
  }
  const frontmatter = value;

  // strict: skills-ref's checks on the values as they are. ucagent/lenient: UCAgent lists any truthy
  // name/description through Python's str() (unstripped name), and skips only missing or falsy ones.
  let nameText: string;
  let descriptionText: string;
  let specView: Record<string, unknown>;
  if (strict) {
    const rawName = frontmatter.name;
    nameText = typeof rawName === "string" ? pyStrip(rawName) : "";
    descriptionText = typeof frontmatter.description === "string" ? frontmatter.description : "";
    // skills-ref checks the stripped, NFKC-normalised name; the record keeps the stripped name.
    const normalisedName = typeof rawName === "string" ? nfkc(nameText) : rawName;
    specView = normalisedName === rawName ? frontmatter : { ...frontmatter, name: normalisedName };
  } else {
    const name = ucagentRequired(frontmatter, "name", folder, loaded);
    if (!name.ok) return fail(name.code, name.message);
    const description = ucagentRequired(frontmatter, "description", folder, loaded);
    if (!description.ok) return fail(description.code, description.message);
    if (name.value.notString) warn("NAME_NOT_STRING", name.value.notString);
    if (description.value.notString) warn("DESCRIPTION_NOT_STRING", description.value.notString);
    nameText = name.value.text;
    descriptionText = description.value.text;
    const specName = nfkc(pyStrip(nameText));
    // A plain string name and description (nearly every skill): the copy would equal the frontmatter, so none is made.
    specView =
      specName === frontmatter.name &&
      descriptionText === frontmatter.description &&
      Object.getPrototypeOf(frontmatter) === Object.prototype
        ? frontmatter
        : { ...frontmatter, name: specName, description: descriptionText };
  }

  const problems = checkSpecRules(specView);
  if (typeof specView.name === "string" && specView.name !== "") {
    // specView.name is NFKC output, so a folder equal to it normalises to it: no regex test for the common case.
    if (folder !== specView.name && nfkc(folder) !== specView.name)
      problems.push({ rule: "NAME_MISMATCH", field: "name" });
  }
  let description = pyStrip(descriptionText);
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
  // A text never has more code points than UTF-16 units: a short one needs no count (no regex test a skill).
  if (!strict && description.length > MAX_DESCRIPTION_LENGTH) {
    const length = codePointLength(description);
    if (length > MAX_DESCRIPTION_LENGTH) {
      warn(
        "DESCRIPTION_TOO_LONG",
        `description is ${length} characters long, over the limit of ${MAX_DESCRIPTION_LENGTH}; loaded it truncated to ${MAX_DESCRIPTION_LENGTH} characters — shorten it and move details into the body`,
      );
      description = truncateCodePoints(description, MAX_DESCRIPTION_LENGTH);
    }
  }
  const name = nameText;

  const metadata = stringifyMetadata(frontmatter.metadata, strict, (kind) =>
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

/** Strict: every spec rule is an error (allowed-tools aside). ucagent/lenient: spec rules warn, unknown fields pass. */
function severityFor(problem: SpecProblem, mode: ValidationMode): Severity | null {
  switch (problem.rule) {
    case "NAME_MISSING":
    case "NAME_NOT_STRING":
    case "DESCRIPTION_MISSING":
    case "DESCRIPTION_NOT_STRING":
      return "error";
    case "NAME_EMPTY":
    case "DESCRIPTION_EMPTY":
      // Reached in ucagent/lenient mode only for whitespace-only text, which UCAgent lists.
      return mode === "strict" ? "error" : "warning";
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
      return mode === "strict"
        ? `field "name" is empty; set it to the folder name: name: ${folderName}`
        : `field "name" is only whitespace (${showValue(frontmatter.name)}); listed anyway, as UCAgent does — set it to the folder name: name: ${folderName}`;
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
      return mode === "strict"
        ? 'field "description" is empty; describe what the skill does and when to use it'
        : 'field "description" is only whitespace; listed with an empty description, as UCAgent does — describe what the skill does and when to use it';
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

type Loaded =
  | {
      ok: true;
      value: unknown;
      body: string;
      earlyEnd?: string;
      document?: Document.Parsed;
      yamlText?: string;
    }
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
