// The one "did you mean" rule: nearest by case-insensitive edit distance within max(2, ⌊len/3⌋), else a prefix.
import { describe, expect, it } from "vitest";
import { closestName, nearestNames } from "../../runtime/contracts/index.js";

describe("nearestNames", () => {
  const table: [string, string[], string[]][] = [
    ["use_skils", ["use_skill", "extra_skill_path"], ["use_skill"]],
    ["readtextfile", ["ListSkill", "ReadTextFile"], ["ReadTextFile"]],
    ["timeout", ["timeout_seconds", "memory_mb"], ["timeout_seconds"]],
    ["text-method", ["text-method", "text-method", "other"], ["text-method", "text-method"]],
    ["NoSuchTool", ["ListSkill", "ReadTextFile", "Status"], []],
    ["ab", ["abc_long_name"], []],
    ["x", [], []],
  ];
  it.each(table)("%s among %j → %j", (name, candidates, expected) => {
    expect(nearestNames(name, candidates)).toEqual(expected);
  });

  it("closestName is the first nearest, or undefined", () => {
    expect(closestName("skil", ["skill", "skills"])).toBe("skill");
    expect(closestName("zzzzzz", ["skill"])).toBeUndefined();
  });
});
