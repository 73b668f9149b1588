// Shared result builders of the skill tools: ok/error results, "skills disabled" and "skill folder missing" answers.
import { relative, sep } from "node:path";
import type { ToolName, ToolResult } from "../contracts/index.js";
import type { ErrorCode } from "../errors.js";
import { isSkillgateError } from "../errors.js";
import { RESTORE_SKILLS_HINT } from "../evidence/index.js";
import type { Session } from "./types.js";

export function okResult(text: string, structured: Record<string, unknown>): ToolResult {
  return { text, structured, isError: false };
}

export function errorResult(
  code: ErrorCode,
  text: string,
  structured: Record<string, unknown> = {},
): ToolResult {
  return { text, structured: { error: { code, message: text }, ...structured }, isError: true, code };
}

/** A SkillgateError raised by a dependency becomes a result the agent can act on; anything else is our bug. */
export function resultFromError(error: unknown): ToolResult {
  if (isSkillgateError(error)) return errorResult(error.code, error.message, { details: error.details });
  throw error;
}

/**
 * The answer of a skill tool when skill support is off. Not an error: with skills disabled every stage is
 * completable from its task text, guide_doc/ and the checkers, so nothing may block on this.
 */
export function skillsDisabledResult(tool: ToolName): ToolResult {
  return {
    text:
      `${tool}: skill support is disabled (skill.use_skill is false, or --no-use-skill was given), so there is nothing ` +
      "to do here. Work from the stage task and its guide_doc, then call Check and Complete. To use skills, restart " +
      "with --use-skill (or set skill.use_skill: true) and run `skillgate init <workspace>`.",
    structured: { disabled: true, reason: "skill support is disabled" },
    isError: false,
    code: "SKILLS_DISABLED",
  };
}

/** Skills are enabled but <ws>/.ucagent/skills is not there. */
export function skillRootMissingResult(session: Session): ToolResult {
  const shown = workspaceRelative(session, session.paths.skillsDir);
  return errorResult("SKILL_ROOT_MISSING", `Skill directory not found: ${shown}. ${RESTORE_SKILLS_HINT}`, {
    skill_root: session.paths.skillsDir,
  });
}

/** Path relative to the workspace with "/" separators (what the agent passes back to ReadTextFile). */
export function workspaceRelative(session: Session, absolutePath: string): string {
  return relative(session.paths.root, absolutePath).split(sep).join("/");
}
