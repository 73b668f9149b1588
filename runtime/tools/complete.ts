// Tool Complete: the skill gate (forced stages), then the checkers; on success the workflow moves to the next stage.
import { z } from "zod";
import type { ToolDefinition } from "./types.js";

export const completeInput = z.object({}).strict();

export const completeTool: ToolDefinition<typeof completeInput> = {
  name: "Complete",
  description:
    "Perform comprehensive validation of your current stage's implementation against requirements and mark the " +
    "stage as complete if all checks pass (different from tool 'Check': if all checks pass, the stage is marked as " +
    "complete and the workflow advances to the next stage). Stages with required skills first need their usage " +
    "recorded with SetSkillUsage.",
  inputSchema: completeInput,
  skillTool: false,
  handler: (_input, session) => session.engine.complete(),
};
