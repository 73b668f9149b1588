// formatInputError: one readable message per bad tool call (field, what was given, the fix), as the tools return it.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatInputError } from "../../runtime/tools/input-errors.js";

const schema = z
  .object({
    path: z.string(),
    start: z.number().int().min(0),
    count: z.number().int().max(10).optional(),
    commands: z.array(z.tuple([z.string(), z.string()])).optional(),
    mode: z.enum(["a", "b"]).optional(),
  })
  .strict();

function message(input: unknown): string {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("the input was meant to be invalid");
  return formatInputError("Tool", parsed.error, input, '{"path": "x", "start": 0}');
}

const FIX = ' Fix the call and try again, e.g. Tool {"path": "x", "start": 0}.';

describe("formatInputError", () => {
  it.each([
    [{ start: 0 }, "Invalid arguments for Tool: 'path' is required (string)."],
    [{ path: 7, start: 0 }, "Invalid arguments for Tool: 'path' must be string, got 7."],
    [
      { path: "x", start: -1 },
      "Invalid arguments for Tool: 'start' is too small (expected number to be >=0), got -1.",
    ],
    [
      { path: "x", start: 0, count: 11 },
      "Invalid arguments for Tool: 'count' is too big (expected number to be <=10), got 11.",
    ],
    [
      { path: "x", start: 0, extra: 1, more: 2 },
      "Invalid arguments for Tool: unknown field(s) 'extra', 'more'.",
    ],
    [
      { path: "x", start: 0, commands: [["a", 5]] },
      "Invalid arguments for Tool: 'commands[0][1]' must be string, got 5.",
    ],
    [
      { path: "x".repeat(100), start: "y".repeat(100) },
      `Invalid arguments for Tool: 'start' must be number, got "${"y".repeat(76)}....`,
    ],
    [null, "Invalid arguments for Tool: the arguments must be object, got null."],
  ])("%j", (input, text) => {
    expect(message(input)).toBe(`${text.slice(0, -1)}.${FIX}`);
  });

  it("joins every problem with '; '", () => {
    expect(message({ path: 1, start: "x" })).toBe(
      `Invalid arguments for Tool: 'path' must be string, got 1; 'start' must be number, got "x".${FIX}`,
    );
  });

  it("names the field and value for other issues (an enum) with zod's message", () => {
    expect(message({ path: "x", start: 0, mode: "c" })).toMatch(
      /^Invalid arguments for Tool: 'mode': .+ \(got "c"\)\./,
    );
  });
});
