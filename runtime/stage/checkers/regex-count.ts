// Checker `regex_count`: the number of matches of a pattern lies within [min, max] (min defaults to 1 without max).
import { z } from "zod";
import { readTextArg } from "./files.js";
import type { CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z
    .object({
      path: z.string().min(1),
      pattern: z.string().min(1),
      flags: z
        .string()
        .regex(/^[imsu]*$/, "flags may only use i, m, s, u")
        .optional(),
      min: z.number().int().min(0).optional(),
      max: z.number().int().min(0).optional(),
    })
    .strict()
    .refine((a) => isRegex(a.pattern, a.flags), { message: "pattern is not a valid regular expression" })
    .refine((a) => a.min === undefined || a.max === undefined || a.min <= a.max, {
      message: "min must be <= max",
    });
let builtArgs: ReturnType<typeof buildArgs> | undefined;

export const regexCount: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "regex_count",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
  async run(args, ctx) {
    const file = await readTextArg("regex_count", args.path, ctx);
    if (!file.ok) return file;
    const flags = args.flags ?? "";
    const count = [...file.text.matchAll(new RegExp(args.pattern, `${flags}g`))].length;
    const min = args.min ?? (args.max === undefined ? 1 : 0);
    const shownPattern = `/${args.pattern}/${flags}`;
    if (count < min) {
      return {
        ok: false,
        message: `regex_count: ${file.shown} has ${count} match(es) of ${shownPattern}; need at least ${min}. Add the missing content.`,
      };
    }
    if (args.max !== undefined && count > args.max) {
      return {
        ok: false,
        message: `regex_count: ${file.shown} has ${count} match(es) of ${shownPattern}; allowed at most ${args.max}. Remove the extra ones.`,
      };
    }
    return { ok: true, message: `regex_count: ${file.shown} has ${count} match(es) of ${shownPattern}.` };
  },
};

function isRegex(source: string, flags: string | undefined): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}
