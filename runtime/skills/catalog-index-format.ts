// The catalog index's JSON shape, read back field by field: the file is input like any other, so nothing unchecked is served.
import { compareIds } from "./tree-files.js";
import type { Diagnostic, SkillRecord, ValidationMode } from "./types.js";

export type IndexedSkill = Omit<SkillRecord, "root" | "dir" | "skillFile">;

export interface IndexBody {
  root: string;
  realRoot: string;
  mode: ValidationMode;
  maxDepth: number;
  maxSkills: number;
  /** What the snapshot rests on, relative to the root ("" is the root itself), in walk order. */
  paths: string[];
  /** sha256 of the paths' stamps (tree-record.ts), as float64 numbers in path order. */
  digest: string;
  skills: IndexedSkill[];
  skipped: Diagnostic[];
}

type Json = Record<string, unknown>;

/** Relative, "/"-separated, no empty, "." or ".." segment. */
const SAFE_ID = /^(?!\.\.?(?:\/|$))(?!.*\/\.\.?(?:\/|$))[^/]+(?:\/[^/]+)*$/;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;
const isString = (value: unknown): value is string => typeof value === "string";
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** The body when every field has the type the walker would have produced, else null. */
export function readIndexBody(value: unknown): IndexBody | null {
  if (!isObject(value)) return null;
  const { root, realRoot, mode, maxDepth, maxSkills, paths, digest, skills, skipped } = value;
  if (!isString(root) || !isString(realRoot) || !isString(mode) || !isString(digest)) return null;
  if (mode !== "ucagent" && mode !== "strict" && mode !== "lenient") return null;
  if (typeof maxDepth !== "number" || typeof maxSkills !== "number") return null;
  if (!isStringList(paths)) return null;
  if (!Array.isArray(skills) || !Array.isArray(skipped) || !skipped.every(isDiagnostic)) return null;
  let previous: string | null = null;
  for (const skill of skills) {
    if (!isIndexedSkill(skill)) return null;
    // Catalog order, no id twice: what the walker emits.
    if (previous !== null && compareIds(previous, skill.id) >= 0) return null;
    previous = skill.id;
  }
  return { root, realRoot, mode, maxDepth, maxSkills, paths, digest, skills, skipped } as IndexBody;
}

function isDiagnostic(value: unknown): value is Diagnostic {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 4 &&
    isString(value.path) &&
    isString(value.code) &&
    isString(value.message) &&
    (value.severity === "error" || value.severity === "warning")
  );
}

function isIndexedSkill(value: unknown): value is IndexedSkill {
  if (!isObject(value)) return false;
  const { id, name, description, metadata, frontmatter, body, scripts, hasHooks, diagnostics } = value;
  if (!isString(id) || !SAFE_ID.test(id)) return false;
  if (!isString(name) || !isString(description) || !isString(body) || typeof hasHooks !== "boolean")
    return false;
  if (!isObject(metadata) || !Object.values(metadata).every(isString)) return false;
  if (!isObject(frontmatter) || !isStringList(scripts)) return false;
  return Array.isArray(diagnostics) && diagnostics.every(isDiagnostic);
}

/**
 * True when JSON gives the value back exactly: plain objects, arrays, strings, booleans, null and finite
 * numbers other than -0 (a frontmatter may hold a set, an ordered map, binary data, NaN or Infinity).
 */
export function isJsonSafe(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((item) => isJsonSafe(item, depth + 1));
  if (!isObject(value)) return false;
  for (const key of Object.keys(value)) if (!isJsonSafe(value[key], depth + 1)) return false;
  return true;
}
