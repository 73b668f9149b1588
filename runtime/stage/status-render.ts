// The one status renderer: the report (JSON) from the engine state, and pure views of it for the model and the terminal.
import type { StageConfig } from "../config/index.js";
import {
  describeCoverage,
  type EvidenceState,
  flagsOf,
  type GateVerdict,
  ledgerHealthLines,
  RESTORE_SKILLS_HINT,
  type StageSkillInfo,
} from "../evidence/index.js";
import { skillFolderMissingText } from "./results.js";
import { stageSkillList } from "./stage-skills.js";
import type { StageView } from "./types.js";

export interface StatusInput {
  /** Stage description after hooks. */
  description: string;
  stages: StageConfig[];
  state: EvidenceState;
  view: StageView | null;
  gateApplies: boolean;
  gate: GateVerdict | null;
  skillsEnabled: boolean;
  skillRootMissing: boolean;
  checkReason: string;
  usageReason: string;
  skills: Record<string, StageSkillInfo>;
  ledger: Record<string, unknown>;
}

export interface StatusStageRow {
  index: number;
  name: string;
  status: "completed" | "current" | "pending";
  force_use_skill: boolean;
  /** Normalised skill ids (empty with skills disabled). */
  skill_list: string[];
}

export interface StatusSkillRow {
  id: string;
  listed: boolean;
  read: boolean;
  used: boolean;
  not_applicable: boolean;
  reason?: string;
  read_coverage: string;
  present: boolean;
  stale_not_applicable_reason?: string;
}

export type StatusGate =
  | { applies: false }
  | { applies: true; ok: true }
  | {
      applies: true;
      ok: false;
      code: string;
      next_action: string;
      skills: Array<{ id: string; missing: string[] }>;
    };

/** The Status tool's structured result; `skillgate status` renders the same report. */
export interface StatusReport {
  stages: StatusStageRow[];
  current_stage_index: number | null;
  current_stage_name: string | null;
  finished: boolean;
  skills_enabled: boolean;
  ledger: Record<string, unknown>;
  /** The rest describe the current stage (absent when the workflow is finished). */
  description?: string;
  tasks?: string[];
  skills?: StatusSkillRow[];
  skill_root_missing?: boolean;
  check_passed?: boolean;
  check_reason?: string;
  usage_validated?: boolean;
  usage_reason?: string;
  gate?: StatusGate;
}

export function statusReport(input: StatusInput): StatusReport {
  const { stages, state, view } = input;
  const completed = new Set(state.completed.map((c) => c.index));
  const report: StatusReport = {
    stages: stages.map((stage, index) => ({
      index,
      name: stage.name,
      status:
        view?.index === index
          ? "current"
          : completed.has(index) || index < state.stageIndex || state.finished
            ? "completed"
            : "pending",
      force_use_skill: stage.force_use_skill,
      skill_list: view?.index === index ? view.skillList : stageSkillList(stage, input.skillsEnabled),
    })),
    current_stage_index: view?.index ?? null,
    current_stage_name: view?.config.name ?? null,
    finished: view === null,
    skills_enabled: input.skillsEnabled,
    ledger: input.ledger,
  };
  if (!view) return report;
  const skills = view.skillList.map((id): StatusSkillRow => {
    const e = view.evidence[id]!;
    const claim = state.usage?.claims[id];
    return {
      id,
      listed: e.list,
      read: e.read,
      used: e.use,
      not_applicable: Boolean(e.notApplicableReason),
      ...(e.notApplicableReason ? { reason: e.notApplicableReason } : {}),
      read_coverage: describeCoverage(flagsOf(state, id)),
      present: input.skills[id]?.present ?? false,
      ...(claim && !e.notApplicableReason && claim.use === false
        ? { stale_not_applicable_reason: claim.reason }
        : {}),
    };
  });
  const gate: StatusGate = !input.gateApplies
    ? { applies: false }
    : input.gate && !input.gate.ok
      ? {
          applies: true,
          ok: false,
          code: input.gate.code,
          next_action: input.gate.nextAction,
          skills: input.gate.skills.map((s) => ({ id: s.id, missing: s.missing })),
        }
      : { applies: true, ok: true };
  return Object.assign(report, {
    description: input.description,
    tasks: view.tasks,
    skills,
    skill_root_missing: input.skillRootMissing,
    check_passed: view.checkPassed,
    check_reason: input.checkReason,
    usage_validated: view.usageValidated,
    usage_reason: input.usageReason,
    gate,
  });
}

/** The Status tool's text (for the model). */
export function renderStatusText(report: StatusReport): string {
  const lines: string[] = [];
  const total = report.stages.length;
  const done = report.finished ? total : (report.current_stage_index ?? 0);
  const current = report.stages.find((row) => row.status === "current");
  lines.push(
    current
      ? `Progress: ${done}/${total} stages completed; current stage ${current.index}: '${current.name}'.`
      : `Progress: ${done}/${total} stages completed; the workflow is finished.`,
  );
  lines.push("Stages:");
  for (const row of report.stages)
    lines.push(`  ${mark(row.status)} ${row.index}. ${row.name} (${row.status})`);
  if (current) lines.push(...currentStageLines(report));
  lines.push(...ledgerHealthLines(report.ledger));
  return lines.join("\n");
}

function currentStageLines(report: StatusReport): string[] {
  const lines: string[] = [];
  const skills = report.skills ?? [];
  if (report.description) lines.push(`Description: ${report.description}`);
  if ((report.tasks ?? []).length > 0) lines.push("Tasks:", ...(report.tasks ?? []).map((t) => `  - ${t}`));
  if (!report.skills_enabled) {
    lines.push("Skills: skill support is disabled; complete the stage from its tasks and checkers.");
  } else if (skills.length === 0) {
    lines.push("Stage skills: none (nothing to record with SetSkillUsage).");
  } else {
    const gateText = report.gate?.applies
      ? "Complete is gated on them"
      : "optional: force_use_skill is false";
    lines.push(`Stage skills (${gateText}):`);
    for (const row of skills) {
      const na = row.not_applicable ? `yes (${row.reason})` : "no";
      const missing = row.present ? "" : " [missing from the workspace skill folder]";
      lines.push(
        `  - ${row.id}: Listed ${yn(row.listed)}, Read ${yn(row.read)}${row.read ? "" : ` (${row.read_coverage})`}, Used ${yn(row.used)}, Not Applicable ${na}${missing}`,
      );
    }
    if (report.skill_root_missing) lines.push(`  ${skillFolderMissingText(".ucagent/skills")}`);
  }
  lines.push(
    report.check_passed
      ? "Check: passed for the current evidence and outputs."
      : `Check: not passed (${report.check_reason}).`,
  );
  if (skills.length > 0) {
    lines.push(
      report.usage_validated
        ? "SetSkillUsage: validated."
        : `SetSkillUsage: not validated (${report.usage_reason}).`,
    );
  }
  const gate = report.gate;
  if (gate?.applies && !gate.ok) {
    lines.push("Before Complete:");
    const absent = new Set(skills.filter((row) => !row.present).map((row) => row.id));
    for (const skill of gate.skills) {
      // Listing or reading a skill that is not in the workspace cannot succeed: say how to get it back instead.
      if (absent.has(skill.id))
        lines.push(
          report.skill_root_missing
            ? `  - ${skill.id}: missing, with the whole skill folder (restore it as said above)`
            : `  - ${skill.id}: missing from the workspace skill folder. ${RESTORE_SKILLS_HINT}`,
        );
      else if (skill.missing.length > 0) lines.push(`  - ${skill.id}: ${skill.missing.join("; ")}`);
    }
    lines.push(`  - next: ${gate.next_action}, then \`Check\` and \`SetSkillUsage\``);
  } else if (gate?.applies) lines.push("Skill gate: satisfied; call `Complete`.");
  return lines;
}

function mark(status: string): string {
  return status === "completed" ? "[x]" : status === "current" ? "[>]" : "[ ]";
}

function yn(value: boolean): string {
  return value ? "yes" : "no";
}
