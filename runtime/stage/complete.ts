// The Complete verb: the skill gate of a forced stage, then the checkers; on success the workflow moves on one stage.

import type { ToolResult } from "../contracts/index.js";
import type { GateVerdict } from "../evidence/index.js";
import { runCheckers } from "./check.js";
import type { StageContext } from "./context.js";
import { errorResult, okResult, skillRootMissingResult } from "./results.js";
import { gateMode } from "./stage-skills.js";

type GateFailure = Exclude<GateVerdict, { ok: true }>;
type Outcome = { ok: true } | { ok: false; gate: GateFailure | null };

export async function complete(ctx: StageContext): Promise<ToolResult> {
  const snap = await ctx.load();
  const stage = ctx.stageAt(snap.state);
  if (!stage) return ctx.finishedResult("Complete");
  const changed = await ctx.bindingGuard(snap.state);
  if (changed) return changed;
  const base = { stage: { index: stage.index, name: stage.config.name } };
  const gated = ctx.gateApplies(stage.index);
  if (gated && !ctx.o.catalog()) {
    await logComplete(ctx, stage.index, { passed: false, gate: "SKILL_ROOT_MISSING" });
    return skillRootMissingResult(ctx.o.paths, { tool: "Complete", name: stage.config.name });
  }
  const outputs = await ctx.outputs(stage.config);
  const gate = gated ? ctx.gateFor(snap.state, stage.index, outputs) : null;
  if (gate && !gate.ok) {
    await logComplete(ctx, stage.index, { passed: false, gate: gate.code });
    return gateResult(gate, base);
  }
  const run = await runCheckers(ctx, stage.config);
  if (!run.passed) {
    const failed = run.outcomes[run.failedIndex ?? 0]!;
    await logComplete(ctx, stage.index, { passed: false, failedChecker: run.failedIndex });
    return errorResult(
      "CHECK_FAILED",
      [
        `Stage ${stage.index} not completed. Please check the task requirements.`,
        `Checker ${(run.failedIndex ?? 0) + 1}/${stage.config.checker.length} (${failed.kind}) failed: ${failed.message}`,
        "Please fix the issues reported above, and then use the `Complete` tool again to complete this stage.",
      ].join("\n"),
      { ...base, complete: false, checkers: run.outcomes, failed_checker: run.failedIndex },
    );
  }
  const nextIndex = stage.index + 1;
  const finished = nextIndex >= ctx.stages.length;
  const { snapshot, result } = await ctx.ledger.transact<Outcome>(async (fresh) => {
    if (fresh.state.stageIndex !== stage.index || fresh.state.finished) {
      return { records: [], result: { ok: false, gate: null } };
    }
    if (gated) {
      // Evidence may have changed while the checkers ran: the gate decides again under the lock.
      const again = ctx.gateFor(fresh.state, stage.index, await ctx.outputs(stage.config));
      if (again && !again.ok) {
        const record = {
          stage: stage.index,
          kind: "complete" as const,
          data: { passed: false, gate: again.code },
        };
        return { records: [record], result: { ok: false, gate: again } };
      }
    }
    const data = {
      passed: true,
      gate: gateMode(stage.config, ctx.o.skillsEnabled),
      name: stage.config.name,
      next: nextIndex,
      nextName: ctx.stages[nextIndex]?.name ?? null,
      finished,
    };
    return { records: [{ stage: stage.index, kind: "complete", data }], result: { ok: true } };
  });
  ctx.absorb(snapshot);
  if (!result.ok) {
    if (result.gate) return gateResult(result.gate, base);
    return errorResult(
      "STAGE_INVALID",
      `Stage ${stage.index} ('${stage.config.name}') is no longer the current stage: another process completed it. Call \`Status\` to see where the workflow is.`,
      { ...base, complete: false },
    );
  }
  if (finished) {
    return okResult(
      "All stages completed successfully. Now you should review your work to check if everything is correct and all the users needs are matched.",
      { ...base, complete: true, finished: true, checkers: run.outcomes },
    );
  }
  const next = await ctx.instance(nextIndex);
  const tasks = next.safeTasks();
  const nextSkills = ctx.skillList(nextIndex);
  const lines = [
    `Stage ${stage.index} completed successfully. Current stage index is now ${nextIndex}: '${next.name}'.`,
    next.safeDescribe() ? `Description: ${next.safeDescribe()}` : "",
    tasks.length > 0 ? `Tasks:\n${tasks.map((t) => `- ${t}`).join("\n")}` : "",
    nextSkills.length > 0
      ? `Stage skills: ${nextSkills.join(", ")}. Use \`ListSkill\` and read each SKILL.md with \`ReadTextFile\` first.`
      : "",
  ].filter((l) => l.length > 0);
  return okResult(lines.join("\n"), {
    ...base,
    complete: true,
    finished: false,
    checkers: run.outcomes,
    next_stage: { index: nextIndex, name: next.name, tasks, skill_list: nextSkills },
  });
}

/** A refused Complete is recorded too (the ledger shows every attempt), unless another process moved the stage on. */
async function logComplete(
  ctx: StageContext,
  stageIndex: number,
  data: Record<string, unknown>,
): Promise<void> {
  const { snapshot } = await ctx.ledger.transact((fresh) =>
    fresh.state.stageIndex === stageIndex && !fresh.state.finished
      ? { records: [{ stage: stageIndex, kind: "complete", data }], result: undefined }
      : { records: [], result: undefined },
  );
  ctx.absorb(snapshot);
}

function gateResult(gate: GateFailure, base: Record<string, unknown>): ToolResult {
  return errorResult(gate.code, gate.message, {
    ...base,
    complete: false,
    skills: gate.skills.map((s) => ({
      id: s.id,
      listed: s.list,
      read: s.read,
      used: s.use,
      not_applicable: s.notApplicable,
      missing: s.missing,
    })),
    next_action: gate.nextAction,
    checkers_run: 0,
  });
}
