// Path helpers shared by checkers: resolve against the workspace, show paths workspace-relative, read text safely.
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import type { CheckerContext } from "./types.js";

export function resolveArgPath(path: string, ctx: CheckerContext): string {
  return isAbsolute(path) ? path : resolve(ctx.workspace, path);
}

export function displayPath(absolute: string, ctx: CheckerContext): string {
  const rel = relative(ctx.workspace, absolute);
  return rel.length > 0 && !rel.startsWith("..") && !isAbsolute(rel) ? rel : absolute;
}

/** Reads a UTF-8 file or returns the failure message the agent should see. */
export async function readTextArg(
  kind: string,
  path: string,
  ctx: CheckerContext,
): Promise<{ ok: true; text: string; shown: string } | { ok: false; message: string }> {
  const absolute = resolveArgPath(path, ctx);
  const shown = displayPath(absolute, ctx);
  try {
    return { ok: true, text: await readFile(absolute, "utf8"), shown };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT")
      return {
        ok: false,
        message: `${kind}: ${shown} does not exist; create it as the stage task describes.`,
      };
    if (code === "EISDIR") return { ok: false, message: `${kind}: ${shown} is a folder, expected a file.` };
    return { ok: false, message: `${kind}: cannot read ${shown} (${code ?? String(error)}).` };
  }
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
