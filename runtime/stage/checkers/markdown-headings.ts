// Checker `markdown_headings`: each required heading line is present (exact text after trimming).
import { z } from "zod";
import { readTextArg, splitLines } from "./files.js";
import type { CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z.object({ path: z.string().min(1), headings: z.array(z.string().min(1)).min(1) }).strict();
let builtArgs: ReturnType<typeof buildArgs> | undefined;

export const markdownHeadings: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "markdown_headings",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
  async run(args, ctx) {
    const file = await readTextArg("markdown_headings", args.path, ctx);
    if (!file.ok) return file;
    const present = new Set(splitLines(file.text).map((l) => l.trim()));
    const missing = args.headings.filter((h) => !present.has(h.trim()));
    if (missing.length > 0) {
      return {
        ok: false,
        message: `markdown_headings: ${file.shown} is missing the heading line(s) ${missing.map((h) => `'${h.trim()}'`).join(", ")}; add each as a line of its own, exactly as written.`,
      };
    }
    return {
      ok: true,
      message: `markdown_headings: ${file.shown} has all ${args.headings.length} heading(s).`,
    };
  },
};
