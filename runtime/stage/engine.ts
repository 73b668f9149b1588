// The stage engine: one object over a shared StageContext, delegating each verb to its own module.

import type { ToolResult } from "../contracts/index.js";
import type { EvidenceLedger } from "../evidence/index.js";
import type { Diagnostic } from "../skills/index.js";
import { check } from "./check.js";
import { complete } from "./complete.js";
import { StageContext, type StageEngineOptions } from "./context.js";
import type { StageInstance } from "./hooks.js";
import { recordList, recordRead, recordRun, recordUse, type UseAlong } from "./record.js";
import { setSkillUsage } from "./set-skill-usage.js";
import { startEngine } from "./start.js";
import { ledgerHealth, status } from "./status.js";
import type { ReadRange, StageEngine, StageView } from "./types.js";

export type { StageEngineOptions } from "./context.js";

export interface SkillgateStageEngine extends StageEngine {
  /** Warnings not yet shown in a tool result (ledger tampering, hook failures); clears them. */
  drainWarnings(): string[];
  /** Workflow diagnostics computed when the engine was created. */
  readonly diagnostics: Diagnostic[];
  readonly ledger: EvidenceLedger;
  /** The hookable instance of a stage (hooks applied when skills are enabled). */
  stageInstance(index: number): Promise<StageInstance | null>;
  /** What init recorded at this start (changes and reset stages), for the init report. */
  readonly bindingNotes: string[];
  /** skill-relative path → sha256 as bound in the signed ledger (null before the first binding). */
  trustedManifest(): Promise<Record<string, string> | null>;
  /** Records a run receipt of RunSkillScript (and, given `use`, the call's use evidence in the same append). */
  recordRun(receipt: Record<string, unknown>, use?: UseAlong): Promise<string[]>;
  /** Ledger health for status (never throws: a refusal is reported as such). */
  ledgerHealth(): Promise<Record<string, unknown>>;
}

/**
 * Opens the engine of a workspace: validates the workflow and binds it in the ledger. Verb results carry no
 * warnings; the tool layer attaches `drainWarnings()` to the result it returns (callTool), once.
 */
export async function createStageEngine(options: StageEngineOptions): Promise<SkillgateStageEngine> {
  const ctx = new StageContext(options);
  await startEngine(ctx);
  return {
    ledger: ctx.ledger,
    diagnostics: ctx.diagnostics,
    bindingNotes: ctx.bindingNotes,
    drainWarnings: () => ctx.warnings.drain(),
    current: () => current(ctx),
    recordList: (skillIds: string[]) => recordList(ctx, skillIds),
    recordRead: (skillId: string, range: ReadRange, content?: { sha256: string }) =>
      recordRead(ctx, skillId, range, content),
    recordUse: (skillIds: string[], detail: Record<string, unknown>) => recordUse(ctx, skillIds, detail),
    recordRun: (receipt: Record<string, unknown>, use?: UseAlong) => recordRun(ctx, receipt, use),
    check: (): Promise<ToolResult> => check(ctx),
    setSkillUsage: (input: unknown): Promise<ToolResult> => setSkillUsage(ctx, input),
    complete: (): Promise<ToolResult> => complete(ctx),
    status: (): Promise<ToolResult> => status(ctx),
    ledgerHealth: () => ledgerHealth(ctx),
    trustedManifest: () => ctx.trustedManifest(),
    stageInstance: async (index: number) =>
      index >= 0 && index < ctx.stages.length ? ctx.instance(index) : null,
  };
}

async function current(ctx: StageContext): Promise<StageView | null> {
  const snap = await ctx.load();
  const stage = ctx.stageAt(snap.state);
  if (!stage) return null;
  return ctx.view(snap.state, stage.index, await ctx.outputs(stage.config));
}
