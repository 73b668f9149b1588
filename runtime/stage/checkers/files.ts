// Path helpers shared by checkers: resolve against the workspace, show paths workspace-relative, read through the safe reader.
import { isAbsolute, resolve } from "node:path";
import { shownBelow } from "../../contracts/index.js";
import { SkillgateError } from "../../errors.js";
import { readWorkspaceText } from "../../workspace/index.js";
import type { CheckerContext } from "./types.js";

/** Largest file a checker reads. */
export const CHECKER_MAX_BYTES = 10 * 1024 * 1024;

export function resolveArgPath(path: string, ctx: CheckerContext): string {
  return isAbsolute(path) ? path : resolve(ctx.workspace, path);
}

export function displayPath(absolute: string, ctx: CheckerContext): string {
  return shownBelow(ctx.workspace, absolute);
}

/** Why a checker could not use a file, in words the agent can act on. */
export function fileProblem(error: unknown, shown: string): string {
  if (!(error instanceof SkillgateError)) return `cannot read ${shown} (${String(error)})`;
  const details = error.details;
  switch (error.code) {
    case "FILE_NOT_FOUND":
      return `${shown} does not exist; create it as the stage task describes`;
    case "PATH_OUTSIDE_WORKSPACE":
      return details.reason === "escape"
        ? `${shown} leads outside the workspace (to ${details.target}); checkers read only files inside it, so replace the link with the file itself`
        : `${shown} is outside the workspace; checkers read only files inside it (fix the stage config)`;
    case "NOT_REGULAR_FILE":
      return details.kind === "directory"
        ? `${shown} is a folder, expected a file`
        : `${shown} is a ${details.kind}, not a regular file; write a regular file there`;
    case "FILE_TOO_LARGE":
      return `${shown} is ${details.size} bytes, over the ${CHECKER_MAX_BYTES}-byte limit of checkers`;
    case "NOT_TEXT":
      return `${shown} is not UTF-8 text`;
    default:
      return `cannot read ${shown} (${details.errno ?? error.code})`;
  }
}

/** Reads a UTF-8 file inside the workspace or returns the failure message the agent should see. */
export async function readTextArg(
  kind: string,
  path: string,
  ctx: CheckerContext,
): Promise<{ ok: true; text: string; shown: string } | { ok: false; message: string }> {
  const absolute = resolveArgPath(path, ctx);
  const shown = displayPath(absolute, ctx);
  try {
    const read = await readWorkspaceText(ctx.workspace, absolute, {
      maxBytes: CHECKER_MAX_BYTES,
      allowAbsolute: true,
    });
    return { ok: true, text: read.text, shown };
  } catch (error) {
    return { ok: false, message: `${kind}: ${fileProblem(error, shown)}.` };
  }
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
