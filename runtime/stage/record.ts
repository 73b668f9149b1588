// Records list/read/use evidence and run receipts of the current stage's skills in the ledger (no write when nothing changes).
import { join, relative } from "node:path";
import { type EvidenceState, flagsOf, type LedgerSnapshot, type UnsignedRecord } from "../evidence/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { readWorkspaceFile } from "../workspace/index.js";
import type { StageContext } from "./context.js";
import type { ReadRange } from "./types.js";

const MAX_USE_DETAIL_CHARS = 4000;

export function recordList(ctx: StageContext, skillIds: string[]): Promise<void> {
  return recordEvidence(
    ctx,
    "list",
    skillIds,
    (state, ids) => ids.some((id) => !flagsOf(state, id).list),
    {},
  );
}

export function recordUse(
  ctx: StageContext,
  skillIds: string[],
  detail: Record<string, unknown>,
): Promise<void> {
  return recordEvidence(ctx, "use", skillIds, () => true, { detail: capDetail(detail) });
}

/** What a run receipt may carry along: the call's use evidence, appended after it in the same transaction. */
export interface UseAlong {
  skillIds: string[];
  detail: Record<string, unknown>;
}

export async function recordRun(
  ctx: StageContext,
  receipt: Record<string, unknown>,
  use?: UseAlong,
): Promise<string[]> {
  // One lock, one load and one append for the receipt and the use record of a call's last command; the stage's
  // skills are picked on the state the records are sealed onto (no load of its own). The answer does not wait for
  // the fsync: losing these records in a crash only takes evidence away (docs/evidence.md, deferred durability).
  const { snapshot, result } = await ctx.ledger.transact(
    (snap) => {
      const used = use && ctx.o.skillsEnabled ? useRecords(ctx, snap, use) : [];
      return {
        records: [{ stage: snap.state.stageIndex, kind: "run", data: receipt }, ...used],
        result: used.flatMap((record) => (record.data as { skills: string[] }).skills),
      };
    },
    { durable: false },
  );
  ctx.absorb(snapshot);
  return result;
}

function useRecords(ctx: StageContext, snap: LedgerSnapshot, use: UseAlong): UnsignedRecord[] {
  return evidenceRecords(ctx, snap, "use", normalised(use.skillIds), () => true, {
    detail: capDetail(use.detail),
  });
}

/** Read evidence once ranges cover the whole SKILL.md, and only of the bytes init recorded. True when read is complete. */
export async function recordRead(
  ctx: StageContext,
  skillId: string,
  range: ReadRange,
  content?: { sha256: string },
): Promise<boolean> {
  if (!ctx.o.skillsEnabled) return false;
  const id = normaliseSkillId(skillId);
  if (id === null) return false;
  const zeroLine = range.totalLines <= 0 || range.endLine < range.startLine;
  const bound = (await ctx.load()).state.binding?.manifest[`${id}/SKILL.md`];
  if (bound !== undefined && !zeroLine) {
    const sha = content?.sha256 ?? (await skillFileSha(ctx, id));
    if (sha !== bound) {
      ctx.warnings.add(
        `${id}/SKILL.md differs from the copy init recorded (sha256 ${String(sha).slice(0, 12)} != ${bound.slice(0, 12)}), so this read is not read evidence. Restore the skill with \`skillgate init ${ctx.o.paths.root}\`, then read it again.`,
      );
      return false;
    }
  }
  const { snapshot } = await ctx.ledger.transact((snap) => {
    const stage = ctx.stageAt(snap.state);
    if (!stage || zeroLine || !ctx.skillList(stage.index).includes(id) || flagsOf(snap.state, id).read) {
      return { records: [], result: undefined };
    }
    const data = {
      skill: id,
      startLine: range.startLine,
      endLine: range.endLine,
      totalLines: range.totalLines,
    };
    return { records: [{ stage: stage.index, kind: "read", data }], result: undefined };
  });
  ctx.absorb(snapshot);
  return flagsOf(snapshot.state, id).read;
}

async function skillFileSha(ctx: StageContext, id: string): Promise<string | null> {
  const { root, skillsDir } = ctx.o.paths;
  const rel = relative(root, join(skillsDir, ...id.split("/"), "SKILL.md"));
  return readWorkspaceFile(root, rel).then(
    (read) => read.sha256,
    () => null,
  );
}

async function recordEvidence(
  ctx: StageContext,
  kind: "list" | "use",
  skillIds: string[],
  worthRecording: (state: EvidenceState, ids: string[]) => boolean,
  extra: Record<string, unknown>,
): Promise<void> {
  if (!ctx.o.skillsEnabled) return;
  const wanted = normalised(skillIds);
  const recordsFor = (snap: LedgerSnapshot): UnsignedRecord[] =>
    evidenceRecords(ctx, snap, kind, wanted, worthRecording, extra);
  // A repeated ListSkill changes no flag: decided on the unchanged verified state, it needs neither lock nor write.
  const unchanged = await ctx.ledger.readUnchanged();
  if (unchanged && recordsFor(unchanged).length === 0) return;
  const { snapshot } = await ctx.ledger.transact((snap) => ({
    records: recordsFor(snap),
    result: undefined,
  }));
  ctx.absorb(snapshot);
}

function normalised(skillIds: string[]): string[] {
  return skillIds.map((raw) => normaliseSkillId(raw)).filter((id): id is string => id !== null);
}

/** The list/use record of the current stage's skills among `wanted`, when it is worth recording. */
function evidenceRecords(
  ctx: StageContext,
  snap: LedgerSnapshot,
  kind: "list" | "use",
  wanted: string[],
  worthRecording: (state: EvidenceState, ids: string[]) => boolean,
  extra: Record<string, unknown>,
): UnsignedRecord[] {
  const stage = ctx.stageAt(snap.state);
  if (!stage) return [];
  const list = ctx.skillList(stage.index);
  const ids = [...new Set(wanted.filter((id) => list.includes(id)))];
  if (ids.length === 0 || !worthRecording(snap.state, ids)) return [];
  return [{ stage: stage.index, kind, data: { skills: ids, ...extra } }];
}

/** A use record keeps at most MAX_USE_DETAIL_CHARS of detail, so one huge run cannot bloat the ledger. */
export function capDetail(detail: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(detail);
  return text.length <= MAX_USE_DETAIL_CHARS ? detail : { truncated: text.slice(0, MAX_USE_DETAIL_CHARS) };
}
