// Diagnostic builders of the workflow check: an error or a warning at a config path, and how a bad value is named.
import type { Diagnostic } from "../skills/index.js";

/** A bad value named for the message: "a list", "\"yes\" (a string)", "3 (a number)". */
export function kind(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `${JSON.stringify(value)} (a string)`;
  if (typeof value === "object") return "a mapping";
  return `${String(value)} (a ${typeof value})`;
}

export function error(path: string, code: string, message: string): Diagnostic {
  return { path, code, message, severity: "error" };
}

export function warning(path: string, code: string, message: string): Diagnostic {
  return { path, code, message, severity: "warning" };
}
