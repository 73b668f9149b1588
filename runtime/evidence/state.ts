// The evidence state derived by folding ledger records: current stage, per-skill flags, read coverage, check and usage.

import type { Binding } from "./binding.js";
import type { LedgerRecord } from "./record.js";

export interface SkillFlags {
  list: boolean;
  read: boolean;
  use: boolean;
  /** Merged 1-based inclusive line ranges of SKILL.md read in this stage, for the file length in `totalLines`. */
  readRanges: Array<[number, number]>;
  totalLines: number;
}

export interface UsageClaim {
  list: boolean;
  read: boolean;
  use: boolean;
  reason?: string;
}

export interface CheckState {
  seq: number;
  passed: boolean;
  /** evidenceVersion the check ran against. */
  evidenceVersion: number;
  /** Fingerprint of the stage's output files taken before the checkers ran. */
  fingerprint: string;
  /** Per-file entries of the fingerprint (to name what changed). */
  files: Record<string, string>;
  message: string;
}

export interface UsageState {
  seq: number;
  evidenceVersion: number;
  fingerprint: string;
  files: Record<string, string>;
  claims: Record<string, UsageClaim>;
}

/** How a stage was completed: through the enforced skill gate, or without it (and why). */
export type CompletionGate = "enforced" | "skills_disabled" | "gate_off" | "no_skill_list";

export interface CompletedStage {
  index: number;
  name: string;
  evidence: Record<string, { list: boolean; read: boolean; use: boolean; notApplicableReason?: string }>;
  /** Absent in checkpoints written before gates were recorded. */
  gate?: CompletionGate;
  /** Workflow digest the completion was made under. */
  workflowDigest?: string;
  /** Seq of a later bind record whose workflow or pack change touched this stage. */
  changedAt?: number;
}

/** Who signs: the identity of the current init (genesis, or the last adopt). */
export interface LedgerIdentity {
  workspace: string;
  initId: string;
  publicKey: string;
  fingerprint: string;
  home?: string;
}

export interface QuarantineNote {
  /** Seq of the quarantine record. */
  seq: number;
  lines: number;
  reasons: string[];
}

export interface EvidenceState {
  stageIndex: number;
  /** Name of the stage at stageIndex when it was entered (detects a reordered workflow). */
  stageName: string | null;
  finished: boolean;
  /** Current stage only: evidence of stage skills. */
  skills: Record<string, SkillFlags>;
  /** Bumped whenever a list/read/use record changes a flag of the current stage. */
  evidenceVersion: number;
  check: CheckState | null;
  usage: UsageState | null;
  completed: CompletedStage[];
  identity: LedgerIdentity | null;
  /** The workflow, manifest and skill support the evidence is bound to (last bind record). */
  binding: Binding | null;
  quarantined: QuarantineNote[];
  /** Run receipts recorded (RunSkillScript runs). */
  runs: number;
}

export function emptyState(): EvidenceState {
  return {
    stageIndex: 0,
    stageName: null,
    finished: false,
    skills: {},
    evidenceVersion: 0,
    check: null,
    usage: null,
    completed: [],
    identity: null,
    binding: null,
    quarantined: [],
    runs: 0,
  };
}

export function flagsOf(state: EvidenceState, skillId: string): SkillFlags {
  return state.skills[skillId] ?? { list: false, read: false, use: false, readRanges: [], totalLines: 0 };
}

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

export function mergeRanges(ranges: Array<[number, number]>): Array<[number, number]> {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
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
