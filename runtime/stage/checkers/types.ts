// The shape every built-in checker kind implements: a zod schema for its args and a run that explains failures.
import type { z } from "zod";
import type { RuntimeConfig } from "../../config/index.js";

export interface CheckerContext {
  /** Absolute workspace root: relative paths in args resolve against it. */
  workspace: string;
  /** Values for {OUT}, {DUT}, {WORKSPACE}. */
  runtime: Pick<RuntimeConfig, "OUT" | "DUT" | "workspace">;
}

export interface CheckerOutcome {
  ok: boolean;
  /** On failure: what is wrong (file, line, what is missing) and how to fix it. On success: a short summary. */
  message: string;
}

export interface CheckerKind<Args> {
  kind: string;
  args: z.ZodType<Args>;
  run(args: Args, ctx: CheckerContext): Promise<CheckerOutcome>;
}
