// The Check verb: run the current stage's checkers in order (stop at the first failure) and store the outcome.
import type { StageConfig } from "../config/index.js";
import type { ToolResult } from "../contracts/index.js";
import { type CheckerOutcome, runChecker } from "./checkers/index.js";
import type { StageContext } from "./context.js";
import { errorResult, okResult } from "./results.js";

export interface CheckRun {
  passed: boolean;
  outcomes: Array<CheckerOutcome & { kind: string }>;
  failedIndex: number | null;
}

/** Runs a stage's checkers in order; the first failure stops the run. */
export async function runCheckers(ctx: StageContext, stage: StageConfig): Promise<CheckRun> {
  const checkerCtx = { workspace: ctx.o.paths.root, runtime: ctx.o.runtime };
  const outcomes: CheckRun["outcomes"] = [];
  for (const [i, checker] of stage.checker.entries()) {
    const outcome = await runChecker(checker, checkerCtx);
    outcomes.push({ kind: checker.kind, ...outcome });
    if (!outcome.ok) return { passed: false, outcomes, failedIndex: i };
  }
  return { passed: true, outcomes, failedIndex: null };
}

/** "Checker 2/3 (regex_count) failed: …" — the position and kind of the failed checker, and its message. */
export function failedCheckerText(run: CheckRun, stage: StageConfig): string {
  const index = run.failedIndex ?? 0;
  const failed = run.outcomes[index]!;
  return `checker ${index + 1}/${stage.checker.length} (${failed.kind}): ${failed.message}`;
}

export async function check(ctx: StageContext): Promise<ToolResult> {
  const snap = await ctx.load();
  const stage = ctx.stageAt(snap.state);
  if (!stage) return ctx.finishedResult("Check");
  const changed = await ctx.bindingGuard(snap.state);
  if (changed) return changed;
  const instance = await ctx.instance(stage.index);
  const outputs = await ctx.outputs(stage.config);
  const evidenceVersion = snap.state.evidenceVersion;
  const run = await runCheckers(ctx, stage.config);
  const message =
    run.failedIndex === null ? "all checkers passed" : (run.outcomes[run.failedIndex]?.message ?? "");
  const { snapshot } = await ctx.ledger.transact((fresh) => {
    if (fresh.state.stageIndex !== stage.index || fresh.state.finished)
      return { records: [], result: undefined };
    const data = {
      passed: run.passed,
      evidenceVersion,
      fingerprint: outputs.hash,
      files: outputs.files,
      failedChecker: run.failedIndex,
      message: message.slice(0, 2000),
    };
    return { records: [{ stage: stage.index, kind: "check", data }], result: undefined };
  });
  ctx.absorb(snapshot);
  const hints = instance.safeOnCheck({ passed: run.passed, message });
  const structured: Record<string, unknown> = {
    stage: { index: stage.index, name: stage.config.name },
    check_pass: run.passed,
    checkers: run.outcomes,
    failed_checker: run.failedIndex,
  };
  if (!run.passed) {
    const text = [
      `Stage ${stage.index} ('${stage.config.name}') check failed at ${failedCheckerText(run, stage.config)}`,
      ...hints,
      "Please fix the issues reported above, and then use the `Check` tool again to re-validate your work.",
    ].join("\n");
    return errorResult("CHECK_FAILED", text, structured);
  }
  const lines = [
    `Congratulations! Stage ${stage.index} checks passed successfully, you can use tool 'Complete' to finish this stage.`,
    ...run.outcomes.map((o) => `- ${o.message}`),
    ...hints,
  ];
  const gate = ctx.gateFor(snapshot.state, stage.index, outputs);
  if (gate && !gate.ok) {
    lines.push(
      gate.nextAction.startsWith("SetSkillUsage(")
        ? `This stage has a skill gate: before \`Complete\`, record skill usage with ${gate.nextAction}`
        : `This stage has a skill gate: before \`Complete\`, gather the missing skill evidence; next: ${gate.nextAction}`,
    );
    structured.next_action = gate.nextAction;
  }
  return okResult(lines.join("\n"), structured);
}
