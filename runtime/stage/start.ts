// Engine start-up: refuse a broken workflow, bind the workflow and pack in the ledger, record what init or a flag changed.
import { isSkillgateError } from "../errors.js";
import {
  bindingChanges,
  bindRecord,
  boundWorkflow,
  type CurrentBinding,
  type EvidenceState,
  type LedgerSnapshot,
  manifestMap,
  type UnsignedRecord,
} from "../evidence/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { readManifest } from "../workspace/index.js";
import type { StageContext } from "./context.js";
import { assertWorkflowStartable } from "./workflow.js";

export async function startEngine(ctx: StageContext): Promise<void> {
  // A broken workflow stops start-up (UCAgent raises while building its stages); a missing skill folder does not.
  assertWorkflowStartable(ctx.diagnostics, `workspace ${ctx.o.paths.root}`);
  // What is left is a missing skill folder: the tools answer it themselves, with the fix.
  ctx.bound = {
    workflow: boundWorkflow(ctx.o.config, normaliseSkillId),
    manifest: manifestMap(await readManifest(ctx.o.paths)),
    useSkill: ctx.o.skillsEnabled,
  };
  try {
    await startLedger(ctx, ctx.bound);
  } catch (error) {
    // A refused ledger (other key or home, moved, replayed, disk full) is reported by every call and by status,
    // so the operator sees what to fix; nothing is written meanwhile.
    if (!isSkillgateError(error)) throw error;
    ctx.warnings.add(`evidence ledger refused [${error.code}]: ${error.message}`);
  }
}

async function startLedger(ctx: StageContext, current: CurrentBinding): Promise<void> {
  // Most starts append nothing (a `skillgate call` on a bound workspace): decided on a clean load, that needs no lock.
  const clean = await ctx.ledger.readClean();
  if (clean && !startRecordsDue(ctx, clean, current)) {
    ctx.absorb(clean);
    return;
  }
  const { snapshot } = await ctx.ledger.transact((snap) => {
    const records: UnsignedRecord[] = [];
    if (snap.head.seq === 0 && ctx.stages.length > 0) {
      records.push({ stage: 0, kind: "stage_enter", data: { name: ctx.stages[0]!.name } });
    }
    records.push(...bindOnStart(ctx, snap.state, current));
    if (ctx.o.resetCheckOnStart && snap.state.check) {
      records.push({ stage: snap.state.stageIndex, kind: "check_reset", data: { reason: "engine restart" } });
    }
    return { records, result: undefined };
  });
  ctx.absorb(snapshot);
}

/** Whether the transaction above would append anything to `snap` (the same conditions, without side effects). */
function startRecordsDue(ctx: StageContext, snap: LedgerSnapshot, current: CurrentBinding): boolean {
  if (snap.head.seq === 0 && ctx.stages.length > 0) return true;
  if (ctx.o.resetCheckOnStart && snap.state.check) return true;
  return bindReason(ctx, snap.state, current) !== null;
}

/** Why this start must append a bind record (the first binding, a change init just made, a flag toggling skills), or null. */
function bindReason(ctx: StageContext, state: EvidenceState, current: CurrentBinding): string | null {
  if (!state.binding) return ctx.o.initialised ? "init" : "first start";
  const changes = bindingChanges(state.binding, current);
  const changed = changes.workflow.length > 0 || changes.pack.length > 0;
  if ((changed || changes.useSkill) && ctx.o.initialised) return "init";
  if (!changed && changes.useSkill && ctx.o.useSkillFromFlag)
    return current.useSkill ? "--use-skill flag" : "--no-use-skill flag";
  return null;
}

/** The bind record this start must append: the first binding, a change init just made, or a flag toggling skills. */
function bindOnStart(ctx: StageContext, state: EvidenceState, current: CurrentBinding): UnsignedRecord[] {
  if (!state.binding) return [bindRecord(state, current, ctx.o.initialised ? "init" : "first start").record];
  const reason = bindReason(ctx, state, current);
  if (reason === null) return [];
  const bind = bindRecord(state, current, reason);
  const names = bind.affected.map((i) => `${i} '${ctx.stages[i]?.name ?? "?"}'`);
  ctx.bindingNotes.push(
    `${reason === "init" ? "init recorded a change of the workflow or skill pack" : `skill support turned ${current.useSkill ? "on" : "off"} by the ${reason}, recorded in the ledger`}: ${bind.changes.join("; ")}.` +
      (names.length > 0
        ? ` Evidence of stage(s) ${names.join(", ")} was reset${bind.affected.includes(state.stageIndex) ? " (the current stage must collect it again)" : ""}; completed stages stay completed and are marked as completed before the change.`
        : ""),
  );
  for (const note of ctx.bindingNotes) ctx.warnings.add(note);
  return [bind.record];
}
