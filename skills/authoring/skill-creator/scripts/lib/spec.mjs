// Agent Skills spec validation, standalone and portable; stricter than skills-ref on metadata/allowed-tools types.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parseYaml, splitFrontmatter } from "./frontmatter.mjs";

export const ALLOWED_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
export const MAX_COMPATIBILITY = 500;

const codePoints = (text) => [...text].length;

/** Problems (strings) of a skill name, checked against the folder name when given. */
export function nameProblems(rawName, folderName) {
  if (typeof rawName !== "string") return [`name must be a string, got ${JSON.stringify(rawName)}`];
  const name = rawName.normalize("NFKC");
  const problems = [];
  if (name.trim() === "") return ["name is empty: give a lowercase name like my-skill"];
  if (codePoints(name) > MAX_NAME) problems.push(`name is ${codePoints(name)} characters, the limit is ${MAX_NAME}`);
  if (name !== name.toLowerCase()) problems.push(`name "${name}" must be lowercase`);
  if (![...name].every((ch) => ch === "-" || /[\p{L}\p{N}]/u.test(ch))) {
    problems.push(`name "${name}" may contain only letters, digits and hyphens`);
  }
  if (name.startsWith("-") || name.endsWith("-")) problems.push(`name "${name}" must not start or end with a hyphen`);
  if (name.includes("--")) problems.push(`name "${name}" must not contain "--"`);
  if (folderName !== undefined && folderName.normalize("NFKC") !== name) {
    problems.push(`name "${name}" must equal the folder name "${folderName}"`);
  }
  return problems;
}

/** Problems of a parsed frontmatter mapping (every failing field, not just the first). */
export function frontmatterProblems(data, folderName) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return ["frontmatter must be a YAML mapping of fields (name: ..., description: ...)"];
  }
  const problems = [];
  const unknown = Object.keys(data).filter((key) => !ALLOWED_FIELDS.includes(key));
  if (unknown.length > 0) {
    problems.push(
      `unexpected field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: only ${ALLOWED_FIELDS.join(", ")} are allowed (put custom keys under metadata)`,
    );
  }
  if (!("name" in data)) problems.push("name is missing");
  else problems.push(...nameProblems(data.name, folderName));
  if (!("description" in data)) problems.push("description is missing");
  else if (typeof data.description !== "string") problems.push("description must be a string");
  else if (data.description.trim() === "") problems.push("description is empty: say what the skill does and when to use it");
  else if (codePoints(data.description) > MAX_DESCRIPTION) {
    problems.push(`description is ${codePoints(data.description)} characters, the limit is ${MAX_DESCRIPTION}`);
  }
  if ("compatibility" in data) {
    if (typeof data.compatibility !== "string") problems.push("compatibility must be a string");
    else if (codePoints(data.compatibility) > MAX_COMPATIBILITY) {
      problems.push(`compatibility is ${codePoints(data.compatibility)} characters, the limit is ${MAX_COMPATIBILITY}`);
    }
  }
  if ("license" in data && typeof data.license !== "string") problems.push("license must be a string");
  if ("allowed-tools" in data && typeof data["allowed-tools"] !== "string") {
    problems.push("allowed-tools must be a string (space-separated tool names)");
  }
  if ("metadata" in data) {
    const metadata = data.metadata;
    if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
      problems.push("metadata must be a mapping of string keys to string values");
    } else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== "string") problems.push(`metadata.${key} must be a string (quote it: "${String(value)}")`);
      }
    }
  }
  return problems;
}

/** Validate a skill folder: [{ path, message }], empty when valid. */
export function validateSkillDir(dir) {
  const skillFile = join(dir, "SKILL.md");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [{ path: dir, message: "not a folder" }];
  if (!existsSync(skillFile)) return [{ path: dir, message: "SKILL.md not found (the file name is exactly SKILL.md)" }];
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(skillFile));
  } catch (error) {
    return [{ path: skillFile, message: `cannot read as UTF-8: ${error.message}` }];
  }
  const split = splitFrontmatter(text);
  if (!split.ok) return [{ path: skillFile, message: split.message }];
  const parsed = parseYaml(split.yamlText);
  if (!parsed.ok) return [{ path: skillFile, message: parsed.message }];
  return frontmatterProblems(parsed.value, basename(dir)).map((message) => ({ path: skillFile, message }));
}
