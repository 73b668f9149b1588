// Tool SetSkillUsage: the agent reports {list, read, use, reason?} per stage skill; the engine checks it against evidence.
import { z } from "zod";
import type { ToolDefinition } from "./types.js";

/** A JSON string of the mapping is accepted too (some MCP clients send objects as strings). */
const skillUsageValue = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}, z.record(z.string(), z.unknown()).describe("Mapping of stage skill id to {list, read, use, reason?}."));

export const setSkillUsageInput = z
  .object({
    skill_usage: skillUsageValue.describe(
      "One entry per skill of the current stage's skill_list: {list: bool, read: bool, use: bool, reason?: string}. " +
        "reason is required with use: false (why the skill does not apply) and not allowed with use: true.",
    ),
  })
  .strict();

export const setSkillUsageTool: ToolDefinition<typeof setSkillUsageInput> = {
  name: "SetSkillUsage",
  description:
    "Check the usage of the skills and record it for the current stage. For each skill of the stage's skill_list " +
    "report: list (its name and description were listed by ListSkill), read (its SKILL.md was read in full with " +
    "ReadTextFile), use (you followed its method; scripts run with RunSkillScript count automatically). Use " +
    "use: false with a reason when the skill does not apply. Claims are compared with the recorded evidence and " +
    "rejected whole when they differ; call Check first. Example: " +
    "{'skill_usage': {'group/skill-a': {'list': true, 'read': true, 'use': true}}}",
  inputSchema: setSkillUsageInput,
  skillTool: true,
  handler: (input, session) => session.engine.setSkillUsage(input.skill_usage),
};
