// Turns a zod validation failure of tool input into one readable message: which field, what was given, the fix.
import type { z } from "zod";

function fieldName(path: PropertyKey[]): string {
  if (path.length === 0) return "the arguments";
  return `'${path
    .map((part) => (typeof part === "number" ? `[${part}]` : String(part)))
    .join(".")
    .replace(/\.\[/g, "[")}'`;
}

function given(input: unknown, path: PropertyKey[]): string {
  let value: unknown = input;
  for (const part of path) {
    if (value === null || typeof value !== "object") return "nothing";
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown field(s) ${issue.keys.map((key) => `'${key}'`).join(", ")}`;
    case "invalid_type": {
      const value = given(input, issue.path);
      if (value !== "nothing") return `${field} must be ${issue.expected}, got ${value}`;
      return issue.expected === "nonoptional"
        ? `${field} is required`
        : `${field} is required (${issue.expected})`;
    }
    case "too_small":
      return `${field} is too small (${issue.message.replace(/^Too small: /, "")}), got ${given(input, issue.path)}`;
    case "too_big":
      return `${field} is too big (${issue.message.replace(/^Too big: /, "")}), got ${given(input, issue.path)}`;
    default:
      return `${field}: ${issue.message} (got ${given(input, issue.path)})`;
  }
}

/** `Invalid arguments for <tool>: <problems>. Fix: <example>` */
export function formatInputError(tool: string, error: z.ZodError, input: unknown, example: string): string {
  const problems = error.issues.map((issue) => describeIssue(issue, input)).join("; ");
  return `Invalid arguments for ${tool}: ${problems}. Fix the call and try again, e.g. ${tool} ${example}.`;
}
