// The current stage's task as an MCP prompt, so clients with a prompt picker can start (or resume) a stage.

import { resolve } from "node:path";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";
import { shownBelow } from "../contracts/index.js";
import type { Session } from "../tools/index.js";
import { resolveWorkspacePlaceholders } from "../workspace/index.js";
import { invalidParams } from "./rpc-error.js";

export const STAGE_PROMPT = "current_stage";

const request = (method: string) => z.object({ method: z.literal(method), params: z.unknown().optional() });

/** The prompt text: where the workflow stands, the stage task, and the tool order to follow. */
export async function stagePromptText(session: Session): Promise<string> {
  const stage = await session.engine.current();
  if (!stage) {
    return (
      "All stages of the skillgate workflow are completed. Review your work against the users' needs; call " +
      "`Status` to see every stage."
    );
  }
  const lines = [`You are working on stage ${stage.index} '${stage.config.name}' of a skillgate workflow.`];
  if (stage.config.desc) lines.push(`Stage description: ${stage.config.desc}`);
  if (stage.tasks.length > 0) lines.push("Task:", ...stage.tasks.map((task) => `- ${task}`));
  if (stage.config.output_files.length > 0) {
    const shown = stage.config.output_files.map((file) => {
      const absolute = resolve(session.paths.root, resolveWorkspacePlaceholders(file, session.runtime));
      return shownBelow(session.paths.root, absolute);
    });
    lines.push(`Output files (workspace-relative): ${shown.join(", ")}`);
  }
  if (session.skillsEnabled && stage.skillList.length > 0) {
    lines.push(
      `Stage skills: ${stage.skillList.join(", ")}. Call ListSkill, read each skill's SKILL.md (ReadTextFile, or ` +
        "resources/read of its skill:// URI), apply the method (RunSkillScript when it calls for a script), then " +
        "Check, SetSkillUsage and Complete.",
    );
  } else {
    lines.push("Do the task, then call Check; when it passes, call Complete.");
  }
  lines.push("Every failed call says what to do next; `Status` shows where you are.");
  return lines.join("\n");
}

export function registerPrompts(server: Server, session: Session): void {
  server.setRequestHandler(request("prompts/list"), async () => ({
    prompts: [
      {
        name: STAGE_PROMPT,
        title: "Start the current stage",
        description: "The current workflow stage: its task, outputs, skills and the tools to call, in order.",
      },
    ],
  }));
  server.setRequestHandler(request("prompts/get"), async (req) => {
    const raw = req.params as { name?: unknown } | undefined;
    if (raw?.name !== STAGE_PROMPT) {
      throw invalidParams(
        `Unknown prompt ${JSON.stringify(raw?.name ?? null)}: this server has one prompt, '${STAGE_PROMPT}'.`,
      );
    }
    const stage = await session.engine.current();
    return {
      description: stage ? `Stage ${stage.index}: ${stage.config.name}` : "Workflow finished",
      messages: [{ role: "user", content: { type: "text", text: await stagePromptText(session) } }],
    };
  });
}
