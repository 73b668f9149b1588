// Formats the Status tool answer: stages with their state, the current stage's skills and what Complete still needs.
import type { StageConfig } from "../config/index.js";
import {
  describeCoverage,
  type EvidenceState,
  flagsOf,
  type GateVerdict,
  RESTORE_SKILLS_HINT,
  type StageSkillInfo,
} from "../evidence/index.js";
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
}

export function formatStatus(input: StatusInput): { text: string; structured: Record<string, unknown> } {
  const { stages, state, view } = input;
  const completed = new Set(state.completed.map((c) => c.index));
  const stageRows = stages.map((stage, index) => ({
    index,
    name: stage.name,
    status:
      view?.index === index
        ? "current"
        : completed.has(index) || index < state.stageIndex || state.finished
          ? "completed"
          : "pending",
  }));
  const lines: string[] = [];
  const done = state.finished ? stages.length : state.stageIndex;
  lines.push(
    view
      ? `Progress: ${done}/${stages.length} stages completed; current stage ${view.index}: '${view.config.name}'.`
      : `Progress: ${done}/${stages.length} stages completed; the workflow is finished.`,
  );
  lines.push("Stages:");
  for (const row of stageRows) lines.push(`  ${mark(row.status)} ${row.index}. ${row.name} (${row.status})`);
  const structured: Record<string, unknown> = {
    stages: stageRows,
    current_stage_index: view?.index ?? null,
    current_stage_name: view?.config.name ?? null,
    finished: view === null,
    skills_enabled: input.skillsEnabled,
  };
  if (!view) return { text: lines.join("\n"), structured };

  if (input.description) lines.push(`Description: ${input.description}`);
  if (view.tasks.length > 0) lines.push("Tasks:", ...view.tasks.map((t) => `  - ${t}`));
  const skillRows = view.skillList.map((id) => {
    const e = view.evidence[id]!;
    const flags = flagsOf(state, id);
    const claim = state.usage?.claims[id];
    return {
      id,
      listed: e.list,
      read: e.read,
      used: e.use,
      not_applicable: Boolean(e.notApplicableReason),
      ...(e.notApplicableReason ? { reason: e.notApplicableReason } : {}),
      read_coverage: describeCoverage(flags),
      present: input.skills[id]?.present ?? false,
      ...(claim && !e.notApplicableReason && claim.use === false
        ? { stale_not_applicable_reason: claim.reason }
        : {}),
    };
  });
  if (!input.skillsEnabled) {
    lines.push("Skills: skill support is disabled; complete the stage from its tasks and checkers.");
  } else if (skillRows.length === 0) {
    lines.push("Stage skills: none (nothing to record with SetSkillUsage).");
  } else {
    const gateText = input.gateApplies ? "Complete is gated on them" : "optional: force_use_skill is false";
    lines.push(`Stage skills (${gateText}):`);
    for (const row of skillRows) {
      const na = row.not_applicable ? `yes (${row.reason})` : "no";
      const missing = row.present ? "" : " [missing from the workspace skill folder]";
      lines.push(
        `  - ${row.id}: Listed ${yn(row.listed)}, Read ${yn(row.read)}${row.read ? "" : ` (${row.read_coverage})`}, Used ${yn(row.used)}, Not Applicable ${na}${missing}`,
      );
    }
    if (input.skillRootMissing)
      lines.push(`  The workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT}`);
  }
  lines.push(
    view.checkPassed
      ? "Check: passed for the current evidence and outputs."
      : `Check: not passed (${input.checkReason}).`,
  );
  if (skillRows.length > 0) {
    lines.push(
      view.usageValidated
        ? "SetSkillUsage: validated."
        : `SetSkillUsage: not validated (${input.usageReason}).`,
    );
  }
  if (input.gate && !input.gate.ok) {
    lines.push("Before Complete:");
    const absent = new Set(skillRows.filter((row) => !row.present).map((row) => row.id));
    for (const skill of input.gate.skills) {
      // Listing or reading a skill that is not in the workspace cannot succeed: say how to get it back instead.
      if (absent.has(skill.id))
        lines.push(
          input.skillRootMissing
            ? `  - ${skill.id}: missing, with the whole skill folder (restore it as said above)`
            : `  - ${skill.id}: missing from the workspace skill folder. ${RESTORE_SKILLS_HINT}`,
        );
      else if (skill.missing.length > 0) lines.push(`  - ${skill.id}: ${skill.missing.join("; ")}`);
    }
    lines.push(`  - next: ${input.gate.nextAction}, then \`Check\` and \`SetSkillUsage\``);
  } else if (input.gate?.ok) lines.push("Skill gate: satisfied; call `Complete`.");
  Object.assign(structured, {
    tasks: view.tasks,
    skills: skillRows,
    check_passed: view.checkPassed,
    usage_validated: view.usageValidated,
    gate: input.gateApplies
      ? input.gate && !input.gate.ok
        ? { applies: true, ok: false, code: input.gate.code, next_action: input.gate.nextAction }
        : { applies: true, ok: true }
      : { applies: false },
  });
  return { text: lines.join("\n"), structured };
}

function mark(status: string): string {
  return status === "completed" ? "[x]" : status === "current" ? "[>]" : "[ ]";
}

function yn(value: boolean): string {
  return value ? "yes" : "no";
}
