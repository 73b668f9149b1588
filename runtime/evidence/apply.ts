// Applying one verified ledger record to the evidence state: stage entry, flags, read coverage, check, usage, completion.
import type { Binding } from "./binding.js";
import type { LedgerRecord } from "./record.js";
import {
  type CompletedStage,
  type CompletionGate,
  type EvidenceState,
  flagsOf,
  mergeRanges,
  type UsageClaim,
} from "./state.js";

/** Folds one verified record into the state (mutates and returns it). Records of another stage are ignored. */
export function applyRecord(state: EvidenceState, record: LedgerRecord): EvidenceState {
  const data = record.data;
  if (applyGlobal(state, record)) return state;
  if (record.kind !== "stage_enter" && (record.stage !== state.stageIndex || state.finished)) return state;
  switch (record.kind) {
    case "stage_enter":
      enterStage(state, record.stage, typeof data.name === "string" ? data.name : null);
      break;
    case "list":
      for (const id of stringArray(data.skills)) setFlag(state, id, "list");
      break;
    case "use":
      for (const id of stringArray(data.skills)) setFlag(state, id, "use");
      break;
    case "read":
      applyRead(state, data);
      break;
    case "check":
      state.check = {
        seq: record.seq,
        passed: data.passed === true,
        evidenceVersion: numberOr(data.evidenceVersion, -1),
        fingerprint: String(data.fingerprint ?? ""),
        files: stringRecord(data.files),
        message: String(data.message ?? ""),
      };
      break;
    case "check_reset":
      state.check = null;
      break;
    case "set_skill_usage":
      if (data.accepted === true) {
        state.usage = {
          seq: record.seq,
          evidenceVersion: numberOr(data.evidenceVersion, -1),
          fingerprint: String(data.fingerprint ?? ""),
          files: stringRecord(data.files),
          claims: (data.claims ?? {}) as Record<string, UsageClaim>,
        };
      }
      break;
    case "complete":
      if (data.passed === true) {
        state.completed.push({
          index: state.stageIndex,
          name: state.stageName ?? String(data.name ?? ""),
          evidence: summarise(state),
          ...(typeof data.gate === "string" ? { gate: data.gate as CompletionGate } : {}),
          ...(state.binding ? { workflowDigest: state.binding.workflowDigest } : {}),
        });
        const next = numberOr(data.next, state.stageIndex + 1);
        if (data.finished === true) {
          resetStageEvidence(state);
          state.stageIndex = next;
          state.stageName = null;
          state.finished = true;
        } else enterStage(state, next, typeof data.nextName === "string" ? data.nextName : null);
      }
      break;
  }
  return state;
}

/** Records that concern the whole ledger, not one stage; true when `record` was one. */
function applyGlobal(state: EvidenceState, record: LedgerRecord): boolean {
  const data = record.data;
  switch (record.kind) {
    case "genesis":
    case "adopt":
      state.identity = {
        workspace: String(data.workspace ?? ""),
        initId: String(data.initId ?? ""),
        publicKey: String(data.publicKey ?? ""),
        fingerprint: String(data.fingerprint ?? ""),
        ...(typeof data.home === "string" ? { home: data.home } : {}),
      };
      return true;
    case "bind": {
      state.binding = {
        seq: record.seq,
        workflowDigest: String(data.workflowDigest ?? ""),
        manifestDigest: String(data.manifestDigest ?? ""),
        workflow: (data.workflow ?? { stages: [] }) as Binding["workflow"],
        manifest: stringRecord(data.manifest),
        useSkill: data.useSkill !== false,
        reason: String(data.reason ?? ""),
      };
      const affected = Array.isArray(data.affectedStages) ? data.affectedStages : [];
      for (const done of state.completed) if (affected.includes(done.index)) done.changedAt = record.seq;
      if (affected.includes(state.stageIndex) && !state.finished) resetStageEvidence(state);
      return true;
    }
    case "quarantine":
      // Evidence of the current stage gathered before a record we could not trust must be collected again.
      state.quarantined.push({
        seq: record.seq,
        lines: numberOr(data.lines, 0),
        reasons: stringArray(data.reasons).slice(0, 10),
      });
      if (state.quarantined.length > 50) state.quarantined.splice(0, state.quarantined.length - 50);
      if (data.reset !== false && !state.finished) resetStageEvidence(state);
      return true;
    case "run":
      state.runs += 1;
      return true;
    default:
      return false;
  }
}

function enterStage(state: EvidenceState, index: number, name: string | null): void {
  if (state.stageIndex !== index || state.finished) resetStageEvidence(state);
  state.stageIndex = index;
  state.stageName = name;
  state.finished = false;
}

function resetStageEvidence(state: EvidenceState): void {
  state.skills = {};
  state.evidenceVersion += 1;
  state.check = null;
  state.usage = null;
}

function setFlag(state: EvidenceState, id: string, flag: "list" | "use"): void {
  const flags = { ...flagsOf(state, id) };
  if (flags[flag]) return;
  flags[flag] = true;
  state.skills[id] = flags;
  state.evidenceVersion += 1;
}

function applyRead(state: EvidenceState, data: Record<string, unknown>): void {
  const id = typeof data.skill === "string" ? data.skill : null;
  const start = numberOr(data.startLine, 0);
  const end = numberOr(data.endLine, -1);
  const total = numberOr(data.totalLines, 0);
  if (!id || total <= 0 || end < start || start < 1) return;
  const flags = { ...flagsOf(state, id) };
  const ranges = flags.totalLines === total ? flags.readRanges : [];
  flags.totalLines = total;
  flags.readRanges = mergeRanges([...ranges, [start, Math.min(end, total)]]);
  const covered =
    flags.readRanges.length === 1 && flags.readRanges[0]![0] <= 1 && flags.readRanges[0]![1] >= total;
  const changed = covered && !flags.read;
  if (covered) flags.read = true;
  state.skills[id] = flags;
  if (changed) state.evidenceVersion += 1;
}

function summarise(state: EvidenceState): CompletedStage["evidence"] {
  const out: CompletedStage["evidence"] = {};
  const ids = new Set([...Object.keys(state.skills), ...Object.keys(state.usage?.claims ?? {})]);
  for (const id of ids) {
    const flags = flagsOf(state, id);
    const claim = state.usage?.claims[id];
    out[id] = {
      list: flags.list,
      read: flags.read,
      use: flags.use || claim?.use === true,
      ...(claim?.use === false && claim.reason ? { notApplicableReason: claim.reason } : {}),
    };
  }
  return out;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}
