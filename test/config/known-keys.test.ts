// knownKeysAt walks the config schema through zod's public API (wrappers, lists, records), never its def tree.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/index.js";
import { knownKeysAt } from "../../runtime/config/problems.js";

describe("knownKeysAt", () => {
  it("lists the keys of the object at a path, through defaults, lists and records", () => {
    expect(knownKeysAt(ConfigSchema, [])).toContain("skill");
    expect(knownKeysAt(ConfigSchema, ["skill"])).toContain("use_skill");
    expect(knownKeysAt(ConfigSchema, ["stage", 0])).toContain("skill_list");
    expect(knownKeysAt(ConfigSchema, ["exec", "skill_overrides", "review/x"])).toContain("timeout_seconds");
  });

  it("answers no keys for a path into a scalar, a missing key or an inherited property name", () => {
    expect(knownKeysAt(ConfigSchema, ["skill", "use_skill"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["nope"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["constructor"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["__proto__", "x"])).toEqual([]);
  });
});
