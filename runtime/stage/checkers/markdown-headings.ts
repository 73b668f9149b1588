// Checker `markdown_headings`: each required heading line is present (exact text after trimming).
import { z } from "zod";
import { readTextArg, splitLines } from "./files.js";
import type { CheckerKind } from "./types.js";

const Args = z.object({ path: z.string().min(1), headings: z.array(z.string().min(1)).min(1) }).strict();

export const markdownHeadings: CheckerKind<z.infer<typeof Args>> = {
  kind: "markdown_headings",
  args: Args,
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
