// The config schema (runtime/config/schema.ts): the documented defaults, one string accepted as a list of extra paths,
// unknown keys and wrong types refused, every field described.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ConfigSchema, SkillConfigSchema, StageSchema } from "../../runtime/config/schema.js";

describe("ConfigSchema", () => {
  it("gives the skill defaults the design names", () => {
    const skill = ConfigSchema.parse({}).skill;
    expect(skill).toMatchObject({
      use_skill: true,
      extra_skill_path: [],
      max_skill_list_count: 15,
      general_skill_list: [],
      enable_skill_list: [],
      disable_skill_list: [],
    });
  });

  it("accepts one extra_skill_path string as a one-item list; a list stays a list", () => {
    expect(SkillConfigSchema.parse({ extra_skill_path: "/p" }).extra_skill_path).toEqual(["/p"]);
    expect(SkillConfigSchema.parse({ extra_skill_path: ["/a", "/b"] }).extra_skill_path).toEqual([
      "/a",
      "/b",
    ]);
    expect(SkillConfigSchema.safeParse({ extra_skill_path: 3 }).success).toBe(false);
    expect(SkillConfigSchema.safeParse({ extra_skill_path: [3] }).success).toBe(false);
  });

  it.each([
    ["an unknown top-level key", { skil: {} }, "unrecognized_keys"],
    ["an unknown skill key", { skill: { use_skil: true } }, "unrecognized_keys"],
    ["a quoted boolean", { skill: { use_skill: "true" } }, "invalid_type"],
    ["a negative cap", { skill: { max_skill_list_count: -1 } }, "too_small"],
    ["a fractional cap", { skill: { max_skill_list_count: 1.5 } }, "invalid_type"],
    ["a skill_list that is not a list", { stage: [{ name: "s", skill_list: "x" }] }, "invalid_type"],
  ])("refuses %s", (_name, input, code) => {
    const parsed = ConfigSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.code)).toContain(code);
  });

  it("describes every field of the skill and stage objects (the fix texts and docs read them)", () => {
    for (const schema of [SkillConfigSchema, StageSchema]) {
      const shape = (schema as unknown as z.ZodObject<z.ZodRawShape>).shape;
      for (const [key, field] of Object.entries(shape))
        expect((field as z.ZodType).description, `${key} has no .describe()`).toBeTruthy();
    }
  });
});
