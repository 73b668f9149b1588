// Checker `command`: runs argv (no shell) with a timeout and compares the exit code with expect_exit.
import { z } from "zod";
import { displayPath, resolveArgPath } from "./files.js";
import type { CheckerKind } from "./types.js";

/** Built on first use: an engine start checks the args of the kinds its workflow names only. */
const buildArgs = () =>
  z
    .object({
      argv: z
        .array(z.string())
        .min(1)
        .refine((a) => a.length === 0 || (a[0] ?? "").length > 0, { message: "argv[0] must be a program" }),
      cwd: z.string().min(1).optional(),
      expect_exit: z.number().int().default(0),
      timeout_seconds: z.number().positive().max(3600).default(60),
    })
    .strict();
let builtArgs: ReturnType<typeof buildArgs> | undefined;

const OUTPUT_TAIL_LINES = 40;

export const command: CheckerKind<z.infer<ReturnType<typeof buildArgs>>> = {
  kind: "command",
  get args() {
    builtArgs ??= buildArgs();
    return builtArgs;
  },
  async run(args, ctx) {
    const cwd = args.cwd ? resolveArgPath(args.cwd, ctx) : ctx.workspace;
    const shown = `\`${args.argv.join(" ")}\``;
    // execa loads with the first command checker, not with every process that builds the checker table.
    const { execa } = await import("execa");
    const result = await execa(args.argv[0]!, args.argv.slice(1), {
      cwd,
      reject: false,
      all: true,
      stdin: "ignore",
      timeout: args.timeout_seconds * 1000,
      env: { DUT: ctx.runtime.DUT, OUT: ctx.runtime.OUT, WORKSPACE: ctx.runtime.workspace },
      maxBuffer: 4 * 1024 * 1024,
    });
    const tail = lastLines(String(result.all ?? ""));
    const output = tail.length > 0 ? `\nOutput (last ${OUTPUT_TAIL_LINES} lines):\n${tail}` : "";
    const where = displayPath(cwd, ctx);
    if (result.timedOut) {
      return {
        ok: false,
        message: `command: ${shown} timed out after ${args.timeout_seconds} s (cwd ${where}).${output}`,
      };
    }
    if (result.failed && result.exitCode === undefined) {
      const reason =
        result.code === "ENOENT"
          ? `program '${args.argv[0]}' not found`
          : (result.shortMessage ?? "could not start");
      return {
        ok: false,
        message: `command: ${shown} could not run: ${reason} (cwd ${where}). Fix the checker's argv or install the program.`,
      };
    }
    if (result.exitCode !== args.expect_exit) {
      const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
      return {
        ok: false,
        message: `command: ${shown} ${how} (expected ${args.expect_exit}, cwd ${where}). Fix what its output reports.${output}`,
      };
    }
    return { ok: true, message: `command: ${shown} exited with ${args.expect_exit}.` };
  },
};

function lastLines(text: string): string {
  const lines = text.trimEnd().split("\n");
  return lines.slice(-OUTPUT_TAIL_LINES).join("\n");
}
