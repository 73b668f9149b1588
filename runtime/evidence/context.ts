// What the usage checker and the Complete gate need to know about the current stage, gathered by the engine.
import type { EvidenceState } from "./state.js";

export interface StageSkillInfo {
  /** Workspace-relative SKILL.md path, for messages. */
  skillFile: string;
  /** Script filenames; empty means a text method (use is claimed, not observed). */
  scripts: string[];
  /** False when the skill is no longer in the catalog (folder deleted or SKILL.md no longer parses). */
  present: boolean;
}

export interface Freshness {
  ok: boolean;
  /** Why the last passing Check no longer covers the current evidence and outputs. */
  reason: string;
}

export interface UsageContext {
  stageName: string;
  stageIndex: number;
  /** Normalised skill ids of the stage, in config order. */
  skillList: string[];
  skills: Record<string, StageSkillInfo>;
  state: EvidenceState;
  /** Is there a passing Check for the current evidence and output fingerprint? */
  check: Freshness;
  /** Fingerprint of the output files now (stored with an accepted usage). */
  fingerprint: string;
  /** Skill id normaliser (`./a/b/` → `a/b`; null for invalid). */
  normaliseId(raw: string): string | null;
  /**
   * force_use_skill is false: entries are given for the skills the agent used, the others may be left out
   * (each entry given is still checked against the evidence).
   */
  optional?: boolean;
}
