// Diagnostic builders of the workflow check (workflow-diagnostics.ts): how a bad value is named, errors and warnings at a config path.
import { describe, expect, it } from "vitest";
import { error, kind, warning } from "../../runtime/stage/workflow-diagnostics.js";

describe("kind", () => {
  it.each<[string, unknown, string]>([
    ["null", null, "null"],
    ["undefined", undefined, "nothing"],
    ["a list", ["a"], "a list"],
    ["a string", "yes", '"yes" (a string)'],
    ["a string with quotes", 'a"b', '"a\\"b" (a string)'],
    ["a mapping", { a: 1 }, "a mapping"],
    ["a number", 3, "3 (a number)"],
    ["a boolean", false, "false (a boolean)"],
  ])("%s", (_name, value, named) => {
    expect(kind(value)).toBe(named);
  });
});

describe("error and warning", () => {
  it("carry the path, the code, the message and their severity", () => {
    expect(error("stage[0].skill_list", "SKILL_LIST_INVALID", "must be a list")).toEqual({
      path: "stage[0].skill_list",
      code: "SKILL_LIST_INVALID",
      message: "must be a list",
      severity: "error",
    });
    expect(warning("skill.general_skill_list[1]", "GENERAL_SKILL_NOT_FOUND", "not found")).toEqual({
      path: "skill.general_skill_list[1]",
      code: "GENERAL_SKILL_NOT_FOUND",
      message: "not found",
      severity: "warning",
    });
  });
});
