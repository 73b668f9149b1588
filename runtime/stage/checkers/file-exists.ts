// Checker `file_exists`: every path exists and is non-empty (a file with bytes, or a folder with entries).
import { readdir, stat } from "node:fs/promises";
import { z } from "zod";
import { displayPath, resolveArgPath } from "./files.js";
import type { CheckerKind } from "./types.js";

const Args = z
  .object({
    path: z.string().min(1).optional(),
    paths: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict()
  .refine((a) => (a.path === undefined) !== (a.paths === undefined), {
    message: "give exactly one of path or paths",
  });

export const fileExists: CheckerKind<z.infer<typeof Args>> = {
  kind: "file_exists",
  args: Args,
  async run(args, ctx) {
    const paths = args.paths ?? [args.path!];
    const problems: string[] = [];
    for (const path of paths) {
      const absolute = resolveArgPath(path, ctx);
      const shown = displayPath(absolute, ctx);
      const info = await stat(absolute).catch(() => null);
      if (!info) problems.push(`${shown} does not exist; create it as the stage task describes`);
      else if (info.isDirectory() && (await readdir(absolute)).length === 0)
        problems.push(`${shown} is an empty folder; put the stage's output in it`);
      else if (info.isFile() && info.size === 0) problems.push(`${shown} is empty; write its content`);
    }
    if (problems.length > 0) return { ok: false, message: `file_exists: ${problems.join("; ")}.` };
    return { ok: true, message: `file_exists: ${paths.length} path(s) present and non-empty.` };
  },
};
