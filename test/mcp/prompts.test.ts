// The current_stage prompt through the real SDK client: the stage's task text, and an unknown prompt refused with -32602.
import { describe, expect, it } from "vitest";
import { GATE_SKILL, makeFixture } from "../tools/helpers.js";
import { servePerTest } from "./helpers.js";

const served = servePerTest();

describe("the current_stage prompt", () => {
  it("exposes the current stage's task as a prompt that follows the stage", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture);
    const { client } = connection;
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "current_stage",
        title: "Start the current stage",
        description: "The current workflow stage: its task, outputs, skills and the tools to call, in order.",
      },
    ]);
    const first = await client.getPrompt({ name: "current_stage" });
    expect(first.description).toBe("Stage 0: report");
    expect(first.messages).toEqual([
      {
        role: "user",
        content: {
          type: "text",
          text: [
            "You are working on stage 0 'report' of a skillgate workflow.",
            "Stage description: Produce the report with the gate skill.",
            "Task:",
            "- Run make_report.py of the gate skill, then Check, SetSkillUsage and Complete.",
            "Output files (workspace-relative): out/report.md",
            `Stage skills: ${GATE_SKILL}. Call ListSkill, read each skill's SKILL.md (ReadTextFile, or resources/read of ` +
              "its skill:// URI), apply the method (RunSkillScript when it calls for a script), then Check, " +
              "SetSkillUsage and Complete.",
            "Every failed call says what to do next; `Status` shows where you are.",
          ].join("\n"),
        },
      },
    ]);
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown prompt \"nope\": this server has one prompt, 'current_stage'.",
    });
  });
});
