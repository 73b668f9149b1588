// SKILL.md metadata as UCAgent keeps it: a mapping whose values all become strings.
import { isPlainMapping, pyTruthy } from "./pystr.js";
import { describeValue } from "./text.js";

/** UCAgent's _validate_metadata: a mapping's values become strings; anything else is ignored with a warning. */
export function stringifyMetadata(
  raw: unknown,
  strict: boolean,
  onNotMapping: (kind: string) => void,
): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isPlainMapping(raw)) {
    // UCAgent (`if raw: warning(...)`) says nothing about a falsy one: "", [], 0, false, an empty set.
    if (strict || pyTruthy(raw)) onNotMapping(describeValue(raw));
    return {};
  }
  const result: Record<string, string> = {};
  // Keys, not entries: no [key, value] array per field (same own enumerable string keys, same order).
  const mapping = raw as Record<string, unknown>;
  for (const key of Object.keys(mapping)) result[key] = metadataString(mapping[key]);
  return result;
}

/** Strings as they are, null as "", numbers and booleans in their YAML spelling, lists/mappings as JSON. */
export function metadataString(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (value instanceof Set) return JSON.stringify([...value]);
  if (value instanceof Map) return JSON.stringify(Object.fromEntries(value));
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
