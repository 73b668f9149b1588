// The stage engine contract: what the tools call to record evidence and to check, validate and complete stages.
import type { StageConfig } from "../config/index.js";
import type { ToolResult } from "../contracts/index.js";

export type EvidenceKind = "list" | "read" | "use";

export interface SkillEvidence {
  list: boolean;
  read: boolean;
  use: boolean;
  /** Set when SetSkillUsage accepted use:false with this reason. */
  notApplicableReason?: string;
}

export interface StageView {
  index: number;
  config: StageConfig;
  /** Task lines after hooks have shaped them. */
  tasks: string[];
  /** Normalised skill ids of the stage (empty when skills are disabled). */
  skillList: string[];
  evidence: Record<string, SkillEvidence>;
  checkPassed: boolean;
  usageValidated: boolean;
}

export interface ReadRange {
  /** 1-based first line returned. */
  startLine: number;
  /** 1-based last line returned (inclusive); < startLine for an empty read. */
  endLine: number;
  /** Total lines of the file. */
  totalLines: number;
}

export interface StageEngine {
  /** The current stage (reloaded from disk so other processes' writes are seen); null when the workflow is finished. */
  current(): Promise<StageView | null>;
  /** Record list evidence; ids outside the current stage's skill_list are ignored. */
  recordList(skillIds: string[]): Promise<void>;
  /** Record a read of a stage skill's SKILL.md; read evidence once ranges cover the file. Returns true when read is now complete. */
  recordRead(skillId: string, range: ReadRange, content?: { sha256: string }): Promise<boolean>;
  /** Record use evidence for stage skills after a whole RunSkillScript call succeeded. */
  recordUse(skillIds: string[], detail: Record<string, unknown>): Promise<void>;
  check(): Promise<ToolResult>;
  setSkillUsage(input: unknown): Promise<ToolResult>;
  complete(): Promise<ToolResult>;
  status(): Promise<ToolResult>;
  /** Warnings not yet shown in a tool result (ledger tampering, hook failures); returns and clears them. */
  drainWarnings?(): string[];
  /** skill-relative path → sha256 as bound in the signed ledger; scripts and hooks are verified against it. */
  trustedManifest?(): Promise<Record<string, string> | null>;
  /**
   * Records a signed run receipt of one RunSkillScript command; given `use` (the call's last command succeeded),
   * its use evidence too, as recordUse would (the current stage's skills among `use.skillIds`), after the receipt in
   * the same ledger append. Resolves with the stage skills the use record names (none: no use was recorded).
   */
  recordRun?(
    receipt: Record<string, unknown>,
    use?: { skillIds: string[]; detail: Record<string, unknown> },
  ): Promise<string[]>;
  /** Ledger health for status; never throws. */
  ledgerHealth?(): Promise<Record<string, unknown>>;
}
