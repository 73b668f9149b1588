// The terminal view of the status report (`skillgate status`): a stage table and the current stage's skill evidence.
import { ledgerHealthLines } from "../evidence/index.js";
import type { StatusReport } from "./status-render.js";

export type Colour = (name: "red" | "green" | "yellow" | "dim" | "bold", text: string) => string;

/** One row per stage, as `skillgate status --json` prints them (done/current/pending). */
export interface StageRow {
  index: number;
  name: string;
  state: "done" | "current" | "pending";
  force_use_skill: boolean;
  skills: SkillRow[];
  check_passed: boolean | null;
  usage_validated: boolean | null;
}

export interface SkillRow {
  id: string;
  listed: boolean | null;
  read: boolean | null;
  used: boolean | null;
  not_applicable: string | null;
}

/** Pure: the table rows of a report; evidence is known for the current stage only (null elsewhere). */
export function stageRows(report: StatusReport): StageRow[] {
  return report.stages.map((stage) => {
    const current = stage.status === "current";
    const evidence = new Map((current ? (report.skills ?? []) : []).map((skill) => [skill.id, skill]));
    return {
      index: stage.index,
      name: stage.name,
      state: current ? "current" : stage.status === "completed" ? "done" : "pending",
      force_use_skill: stage.force_use_skill,
      skills: stage.skill_list.map((id): SkillRow => {
        const e = evidence.get(id);
        return {
          id,
          listed: e ? e.listed : null,
          read: e ? e.read : null,
          used: e ? e.used : null,
          not_applicable: e?.reason ?? null,
        };
      }),
      check_passed: current ? (report.check_passed ?? false) : null,
      usage_validated: current ? (report.usage_validated ?? false) : null,
    };
  });
}

/** Pure: the text `skillgate status` prints; `notes` are extra skill notes (e.g. Python hooks not run). */
export function renderStatusTable(
  report: StatusReport,
  options: { workspace: string; colour: Colour; notes?: string[] },
): string {
  const { colour } = options;
  const mark = (value: boolean | null): string =>
    value === null ? colour("dim", "-") : value ? colour("green", "yes") : colour("red", "no");
  const rows = stageRows(report);
  const lines: string[] = [];
  lines.push(colour("bold", `Workspace ${options.workspace}`));
  lines.push(`Skills: ${report.skills_enabled ? "enabled" : "disabled"}`);
  lines.push("");
  lines.push(colour("bold", `${pad("#", 4)}${pad("Stage", 32)}${pad("State", 10)}${pad("Check", 7)}Skills`));
  for (const row of rows) {
    const state =
      row.state === "done"
        ? colour("green", "done")
        : row.state === "current"
          ? colour("yellow", "current")
          : colour("dim", "pending");
    const skills = row.skills.length === 0 ? colour("dim", "none") : row.skills.map((s) => s.id).join(", ");
    lines.push(
      `${pad(String(row.index), 4)}${pad(row.name, 32)}${pad(state, 10)}${pad(mark(row.check_passed), 7)}${skills}`,
    );
  }
  const current = rows.find((row) => row.state === "current");
  if (current && current.skills.length > 0) {
    const required = current.force_use_skill ? " (required before Complete)" : " (optional)";
    lines.push("", colour("bold", `Skill evidence of stage '${current.name}'${required}:`));
    lines.push(
      colour(
        "bold",
        `${pad("Skill", 40)}${pad("Listed", 8)}${pad("Read", 6)}${pad("Used", 6)}Not Applicable`,
      ),
    );
    for (const skill of current.skills) {
      lines.push(
        `${pad(skill.id, 40)}${pad(mark(skill.listed), 8)}${pad(mark(skill.read), 6)}${pad(mark(skill.used), 6)}` +
          (skill.not_applicable ? `yes: ${skill.not_applicable}` : colour("dim", "-")),
      );
    }
    lines.push(`SetSkillUsage accepted the current evidence: ${mark(current.usage_validated)}`);
  }
  if (!current) lines.push("", colour("green", "The workflow is finished: every stage is complete."));
  const notes = options.notes ?? [];
  if (notes.length > 0) lines.push("", colour("bold", "Skill notes:"), ...notes.map((note) => `  ${note}`));
  lines.push("", ...ledgerHealthLines(report.ledger));
  return lines.join("\n");
}

/** Pads by visible width (ANSI colour codes take no room). */
function pad(text: string, width: number): string {
  const visible = text.replace(/\u001b\[\d+m/g, "").length;
  return text + " ".repeat(Math.max(0, width - visible));
}
