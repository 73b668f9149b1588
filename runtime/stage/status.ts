// The Status verb and ledger health: gathers the stages, the current stage's evidence and the gate into the status report.

import type { ToolResult } from "../contracts/index.js";
import type { StageContext } from "./context.js";
import { checkFreshness, usageFreshness } from "./freshness.js";
import { okResult } from "./results.js";
import { renderStatusText, statusReport } from "./status-render.js";

export async function status(ctx: StageContext): Promise<ToolResult> {
  const snap = await ctx.load();
  const stage = ctx.stageAt(snap.state);
  const outputs = stage ? await ctx.outputs(stage.config) : null;
  const view = stage && outputs ? await ctx.view(snap.state, stage.index, outputs) : null;
  const gateApplies = stage ? ctx.gateApplies(stage.index) : false;
  const gate = stage && outputs && gateApplies ? ctx.gateFor(snap.state, stage.index, outputs) : null;
  const catalog = ctx.o.skillsEnabled ? ctx.o.catalog() : null;
  const description = stage ? (await ctx.instance(stage.index)).safeDescribe() : "";
  const health = await ledgerHealth(ctx);
  const report = statusReport({
    description,
    stages: ctx.stages,
    state: snap.state,
    view,
    gateApplies,
    gate,
    skillsEnabled: ctx.o.skillsEnabled,
    skillRootMissing: ctx.o.skillsEnabled && catalog === null,
    checkReason: stage && outputs ? checkFreshness(snap.state, outputs).reason : "",
    usageReason: stage && outputs ? usageFreshness(snap.state, outputs).reason : "",
    skills: stage && catalog ? ctx.skillInfo(ctx.skillList(stage.index), catalog) : {},
    ledger: health,
  });
  return okResult(renderStatusText(report), { ...report });
}

/** Ledger health for status (never throws: a refusal is reported as such). */
export async function ledgerHealth(ctx: StageContext): Promise<Record<string, unknown>> {
  try {
    const snap = await ctx.ledger.read();
    const state = snap.state;
    const refusal = await ctx.bindingProblem(state);
    return {
      health: refusal ? "changed" : state.quarantined.length > 0 ? "quarantined" : "ok",
      records: snap.head.seq,
      fingerprint: state.identity?.fingerprint ?? null,
      workspace: state.identity?.workspace ?? null,
      quarantined: state.quarantined,
      runs: state.runs,
      binding: state.binding
        ? {
            workflow_digest: state.binding.workflowDigest,
            manifest_digest: state.binding.manifestDigest,
            use_skill: state.binding.useSkill,
            reason: state.binding.reason,
            seq: state.binding.seq,
          }
        : null,
      ...(refusal ? { problem: { code: refusal.code, message: refusal.message } } : {}),
      completions: state.completed.map((c) => ({
        index: c.index,
        name: c.name,
        gate: c.gate ?? "unknown",
        ...(c.changedAt !== undefined ? { changed_at: c.changedAt } : {}),
      })),
    };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return {
      health: "refused",
      problem: { code: e.code ?? "INTERNAL", message: e.message ?? String(error) },
    };
  }
}
