// The evidence state derived by folding ledger records: current stage, per-skill flags, read coverage, check and usage.

import type { Binding } from "./binding.js";

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
