// The Agent Skills frontmatter rules (as the reference skills-ref validator applies them) as a JSON Schema checked by ajv.
import { createRequire } from "node:module";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import { PY_SPACE_CLASS } from "./text.js";

export const SPEC_ALLOWED_FIELDS = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** One rule of the schema: an allOf entry whose failure means exactly one problem. */
export type SpecRule =
  | "NAME_MISSING"
  | "NAME_NOT_STRING"
  | "NAME_EMPTY"
  | "NAME_TOO_LONG"
  | "NAME_NOT_LOWERCASE"
  | "NAME_HYPHEN_EDGE"
  | "NAME_DOUBLE_HYPHEN"
  | "NAME_INVALID_CHARS"
  | "DESCRIPTION_MISSING"
  | "DESCRIPTION_NOT_STRING"
  | "DESCRIPTION_EMPTY"
  | "DESCRIPTION_TOO_LONG"
  | "COMPATIBILITY_NOT_STRING"
  | "COMPATIBILITY_TOO_LONG"
  | "ALLOWED_TOOLS_INVALID"
  | "UNKNOWN_FIELD"
  // Checked in code: a schema cannot see the folder name.
  | "NAME_MISMATCH";

// skills-ref: name is stripped and NFKC-normalised first (we pass it in that form), must equal its own
// lowercase (Python str.lower → Changes_When_Lowercased), and every character satisfies str.isalnum()
// or is "-" (Unicode letters and numbers: \p{L}\p{N}). Lengths count code points (ajv's default).
const nameRules: Array<[SpecRule, object]> = [
  ["NAME_NOT_STRING", { type: "string" }],
  ["NAME_EMPTY", { minLength: 1 }],
  ["NAME_TOO_LONG", { maxLength: MAX_NAME_LENGTH }],
  ["NAME_NOT_LOWERCASE", { pattern: "^\\P{Changes_When_Lowercased}*$" }],
  ["NAME_HYPHEN_EDGE", { not: { type: "string", pattern: "^-|-$" } }],
  ["NAME_DOUBLE_HYPHEN", { not: { type: "string", pattern: "--" } }],
  ["NAME_INVALID_CHARS", { pattern: "^[\\p{L}\\p{N}-]*$" }],
];
const descriptionRules: Array<[SpecRule, object]> = [
  ["DESCRIPTION_NOT_STRING", { type: "string" }],
  // skills-ref: `not description.strip()`, with Python's whitespace (U+FEFF is text, U+0085 is space).
  ["DESCRIPTION_EMPTY", { pattern: `[^${PY_SPACE_CLASS}]` }],
  ["DESCRIPTION_TOO_LONG", { maxLength: MAX_DESCRIPTION_LENGTH }],
];
const compatibilityRules: Array<[SpecRule, object]> = [
  ["COMPATIBILITY_NOT_STRING", { type: "string" }],
  ["COMPATIBILITY_TOO_LONG", { maxLength: MAX_COMPATIBILITY_LENGTH }],
];

export const SKILL_FRONTMATTER_SCHEMA = {
  $id: "https://skillgate.dev/schemas/skill-frontmatter.json",
  type: "object",
  required: ["name", "description"],
  additionalProperties: false,
  properties: {
    name: { allOf: nameRules.map(([, rule]) => rule) },
    description: { allOf: descriptionRules.map(([, rule]) => rule) },
    license: {},
    compatibility: { allOf: compatibilityRules.map(([, rule]) => rule) },
    metadata: {},
    "allowed-tools": { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
  },
} as const;

const ruleByPath = new Map<string, SpecRule>();
for (const [field, rules] of [
  ["name", nameRules],
  ["description", descriptionRules],
  ["compatibility", compatibilityRules],
] as const) {
  for (const [index, [code]] of rules.entries()) ruleByPath.set(`/${field}/allOf/${index}`, code);
}

// strictTypes off: each name rule sits in its own allOf entry without repeating `type: "string"`.
export const SPEC_AJV_OPTIONS: Options = { allErrors: true, strict: true, strictTypes: false };
/** Written next to this module by the build (scripts/build-spec-validator.mjs): ajv's standalone code. */
export const STANDALONE_VALIDATOR_FILE = "spec-validator.standalone.cjs";

let validateFrontmatter: ValidateFunction | null = null;

/**
 * The compiled schema. The build writes it as ajv standalone code, so a CLI start-up loads neither ajv nor
 * the schema compiler (57 ms); running from sources (no build) it is compiled here on first use.
 */
function frontmatterValidator(): ValidateFunction {
  if (validateFrontmatter) return validateFrontmatter;
  const require = createRequire(import.meta.url);
  try {
    validateFrontmatter = require(`./${STANDALONE_VALIDATOR_FILE}`) as ValidateFunction;
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    const ajv = require("ajv") as { Ajv: new (options: Options) => Ajv };
    validateFrontmatter = new ajv.Ajv(SPEC_AJV_OPTIONS).compile(SKILL_FRONTMATTER_SCHEMA);
  }
  return validateFrontmatter;
}

export interface SpecProblem {
  rule: SpecRule;
  /** The frontmatter field the problem is about. */
  field: string;
}

const ALLOWED = new Set(SPEC_ALLOWED_FIELDS);
const PLAIN_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VISIBLE_ASCII = /[!-~]/;

/**
 * True only when the schema certainly passes: a lowercase ASCII name of single-hyphen words, a description
 * with a visible character, lengths within limits counted in UTF-16 units (never fewer code points than
 * units), no unknown field. Anything else goes to the validator, so the answer is the same either way; it
 * spares the validator call on nearly every skill of a scan.
 */
function certainlyValid(frontmatter: Record<string, unknown>): boolean {
  const { name, description, compatibility } = frontmatter;
  if (typeof name !== "string" || name.length > MAX_NAME_LENGTH || !PLAIN_NAME.test(name)) return false;
  if (typeof description !== "string" || description.length > MAX_DESCRIPTION_LENGTH) return false;
  if (!VISIBLE_ASCII.test(description)) return false;
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string" || compatibility.length > MAX_COMPATIBILITY_LENGTH) return false;
  }
  const tools = frontmatter["allowed-tools"];
  if (tools !== undefined && typeof tools !== "string") {
    if (!Array.isArray(tools) || !tools.every((tool) => typeof tool === "string")) return false;
  }
  for (const key in frontmatter) if (!ALLOWED.has(key)) return false;
  return Object.getOwnPropertySymbols(frontmatter).length === 0;
}

/** Every rule the (name-normalised) frontmatter breaks, each once, in field order. */
export function checkSpecRules(frontmatter: Record<string, unknown>): SpecProblem[] {
  if (certainlyValid(frontmatter)) return [];
  const validate = frontmatterValidator();
  if (validate(frontmatter)) return [];
  const problems: SpecProblem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const problem = toProblem(error);
    if (!problem) continue;
    const key = `${problem.rule}:${problem.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function toProblem(error: ErrorObject): SpecProblem | null {
  if (error.keyword === "required") {
    const field = String(error.params.missingProperty);
    return { rule: field === "name" ? "NAME_MISSING" : "DESCRIPTION_MISSING", field };
  }
  if (error.keyword === "additionalProperties") {
    return { rule: "UNKNOWN_FIELD", field: String(error.params.additionalProperty) };
  }
  if (error.instancePath === "/allowed-tools")
    return { rule: "ALLOWED_TOOLS_INVALID", field: "allowed-tools" };
  // schemaPath looks like "#/properties/name/allOf/3/pattern" or ".../allOf/4/not".
  const match = /^#\/properties\/([^/]+)\/allOf\/(\d+)\//.exec(error.schemaPath);
  if (!match) return null;
  const rule = ruleByPath.get(`/${match[1]}/allOf/${match[2]}`);
  return rule ? { rule, field: match[1] as string } : null;
}
