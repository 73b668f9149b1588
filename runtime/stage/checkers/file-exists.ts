// Checker `file_exists`: every path exists and is non-empty (a file with bytes, or a folder with entries).
import { z } from "zod";
import { listWorkspaceDir, statWorkspacePath } from "../../workspace/index.js";
import { displayPath, fileProblem, resolveArgPath } from "./files.js";
import type { CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z
    .object({
      path: z.string().min(1).optional(),
      paths: z.array(z.string().min(1)).min(1).optional(),
    })
    .strict()
    .refine((a) => (a.path === undefined) !== (a.paths === undefined), {
      message: "give exactly one of path or paths",
    });
let builtArgs: ReturnType<typeof buildArgs> | undefined;

export const fileExists: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "file_exists",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
  async run(args, ctx) {
    const paths = args.paths ?? [args.path!];
    const problems: string[] = [];
    for (const path of paths) {
      const absolute = resolveArgPath(path, ctx);
      const shown = displayPath(absolute, ctx);
      try {
        const info = await statWorkspacePath(ctx.workspace, absolute, { follow: true, allowAbsolute: true });
        if (info.kind === "directory") {
          const listed = await listWorkspaceDir(ctx.workspace, absolute, {
            maxEntries: 1,
            allowAbsolute: true,
          });
          if (listed.entries.length === 0)
            problems.push(`${shown} is an empty folder; put the stage's output in it`);
        } else if (info.kind !== "file")
          // A FIFO, socket or device "exists" but is no output: its bytes are nobody's work and cannot be fingerprinted.
          problems.push(`${shown} is a ${info.kind}, not a regular file; write the output as a regular file`);
        else if (info.size === 0) problems.push(`${shown} is empty; write its content`);
      } catch (error) {
        problems.push(fileProblem(error, shown));
      }
    }
    if (problems.length > 0) return { ok: false, message: `file_exists: ${problems.join("; ")}.` };
    return { ok: true, message: `file_exists: ${paths.length} path(s) present and non-empty.` };
  },
};
