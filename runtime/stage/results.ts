// The one builder of tool results: ok/error, warnings attached, and the "skills disabled" / "skill folder missing" answers.
import { relative, sep } from "node:path";
import type { ToolName, ToolResult, WorkspacePaths } from "../contracts/index.js";
import type { ErrorCode } from "../errors.js";
import { isSkillgateError } from "../errors.js";
import { RESTORE_SKILLS_HINT } from "../evidence/index.js";

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

/** Warnings not yet shown (a tampered ledger, a failed hook) go on the result: a `Warning:` line each, and JSON. */
export function withWarnings(result: ToolResult, warnings: readonly string[]): ToolResult {
  if (warnings.length === 0) return result;
  return {
    ...result,
    text: `${result.text}\n${warnings.map((warning) => `Warning: ${warning}`).join("\n")}`,
    structured: { ...result.structured, warnings: [...warnings] },
  };
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

/**
 * Skills are enabled but <ws>/.ucagent/skills is not there. A skill tool says so plainly; a stage verb
 * (`stage` given) also says which stage needs the skills and that Check still works.
 */
export function skillRootMissingResult(
  paths: Pick<WorkspacePaths, "root" | "skillsDir">,
  stage?: { tool: ToolName; name: string },
): ToolResult {
  const shown = workspaceRelative(paths, paths.skillsDir);
  if (!stage) {
    return errorResult("SKILL_ROOT_MISSING", skillFolderMissingText(shown), { skill_root: paths.skillsDir });
  }
  return errorResult(
    "SKILL_ROOT_MISSING",
    `${stage.tool}: stage '${stage.name}' names skills, but the workspace skill folder ${shown} is missing. ${RESTORE_SKILLS_HINT} Check still works meanwhile.`,
    { skill_root: paths.skillsDir },
  );
}

/** The one wording of "skill folder missing" (skill tools and Status): what is missing, where, and the fix. */
export function skillFolderMissingText(shown: string): string {
  return `The workspace skill folder ${shown} is missing. ${RESTORE_SKILLS_HINT}`;
}

/** Path relative to the workspace with "/" separators (what the agent passes back to ReadTextFile). */
export function workspaceRelative(paths: Pick<WorkspacePaths, "root">, absolutePath: string): string {
  return relative(paths.root, absolutePath).split(sep).join("/");
}
