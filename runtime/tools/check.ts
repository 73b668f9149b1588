// Tool Check: runs the current stage's checkers in order (stops at the first failure); never gated by skills.
import { z } from "zod";
import type { ToolDefinition } from "./types.js";

export const checkInput = z.object({}).strict();

export const checkTool: ToolDefinition<typeof checkInput> = {
  name: "Check",
  description:
    "Perform comprehensive validation of your current stage's implementation against requirements. Runs the " +
    "stage's checkers in order and reports the first failure with what to fix. The tool provides detailed feedback.",
  inputSchema: checkInput,
  skillTool: false,
  handler: (_input, session) => session.engine.check(),
};
