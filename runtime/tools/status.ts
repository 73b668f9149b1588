// Tool Status: the stages, the current stage with its tasks, and per stage skill Listed/Read/Used/Not Applicable.
import { z } from "zod";
import type { ToolDefinition } from "./types.js";

export const statusInput = z.object({}).strict();

export const statusTool: ToolDefinition<typeof statusInput> = {
  name: "Status",
  description:
    "Returns the current status of your mission: every stage and whether it is completed, the current stage's " +
    "tasks, its skills (Listed/Read/Used/Not Applicable), whether Check passed and what Complete still needs.",
  inputSchema: statusInput,
  skillTool: false,
  handler: (_input, session) => session.engine.status(),
};
