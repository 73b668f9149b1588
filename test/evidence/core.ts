// Builders for the pure evidence-core tests: states, records and contexts without any file or process.
import type { LedgerRecord, RecordKind, StageSkillInfo, UsageContext } from "../../runtime/evidence/index.js";
import { applyRecord, type EvidenceState, emptyState } from "../../runtime/evidence/index.js";

export const SKILL = "grp/alpha";
export const TEXT_SKILL = "grp/beta";

export const INFO: Record<string, StageSkillInfo> = {
  [SKILL]: { skillFile: ".ucagent/skills/grp/alpha/SKILL.md", scripts: ["run.py"], present: true },
  [TEXT_SKILL]: { skillFile: ".ucagent/skills/grp/beta/SKILL.md", scripts: [], present: true },
};

let seq = 0;
/** An unsigned record as the fold would pass it on after verification (applyRecord never checks signatures). */
export function rec(kind: RecordKind, data: Record<string, unknown> = {}, stage = 0): LedgerRecord {
  seq += 1;
  return {
    v: 2,
    seq,
    time: "2026-01-01T00:00:00.000Z",
    stage,
    kind,
    data,
    prev: "",
    hash: `h${seq}`,
    sig: "",
  };
}

export function stateOf(...records: LedgerRecord[]): EvidenceState {
  const state = emptyState();
  for (const r of records) applyRecord(state, r);
  return state;
}

/** Stage 0 entered with list, whole read and use of SKILL recorded. */
export function fullEvidence(...ids: string[]): LedgerRecord[] {
  const out = [rec("stage_enter", { name: "build" })];
  out.push(rec("list", { skills: ids }));
  for (const id of ids) out.push(rec("read", { skill: id, startLine: 1, endLine: 10, totalLines: 10 }));
  const scripted = ids.filter((id) => (INFO[id]?.scripts.length ?? 0) > 0);
  if (scripted.length > 0) out.push(rec("use", { skills: scripted }));
  return out;
}

export function usageContext(state: EvidenceState, overrides: Partial<UsageContext> = {}): UsageContext {
  return {
    stageName: "build",
    stageIndex: 0,
    skillList: [SKILL],
    skills: INFO,
    state,
    check: { ok: true, reason: "" },
    fingerprint: "fp",
    normaliseId: (raw) => {
      const id = raw.replace(/^\.\//, "").replace(/\/$/, "");
      return id.length === 0 || id.includes("..") ? null : id;
    },
    ...overrides,
  };
}
