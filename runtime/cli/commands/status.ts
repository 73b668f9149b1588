// `skillgate status`: the workflow's stage table and, for the current stage, per-skill evidence (Listed/Read/Used/Not Applicable).
import type { Command } from "commander";
import { pythonHookNotes } from "../../skills/index.js";
import type { StageView } from "../../stage/index.js";
import type { Session } from "../../tools/index.js";
import { type CliIO, reportError } from "../io.js";
import {
  addSessionOptions,
  initProgressPrinter,
  type SessionFlags,
  sessionOptionsFrom,
} from "../session-options.js";

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

/** Pure: the rows of the table from the config and the current stage view. */
export function stageRows(
  session: Pick<Session, "config" | "skillsEnabled">,
  current: StageView | null,
): StageRow[] {
  return session.config.stage.map((stage, index) => {
    const state =
      current === null || index < current.index ? "done" : index === current.index ? "current" : "pending";
    const ids = session.skillsEnabled
      ? state === "current" && current
        ? current.skillList
        : stage.skill_list
      : [];
    const skills = ids.map((id): SkillRow => {
      const evidence = state === "current" ? current?.evidence[id] : undefined;
      return {
        id,
        listed: evidence ? evidence.list : null,
        read: evidence ? evidence.read : null,
        used: evidence ? evidence.use : null,
        not_applicable: evidence?.notApplicableReason ?? null,
      };
    });
    return {
      index,
      name: stage.name,
      state,
      force_use_skill: stage.force_use_skill,
      skills,
      check_passed: state === "current" && current ? current.checkPassed : null,
      usage_validated: state === "current" && current ? current.usageValidated : null,
    };
  });
}

function mark(io: CliIO, value: boolean | null): string {
  if (value === null) return io.colour("dim", "-");
  return value ? io.colour("green", "yes") : io.colour("red", "no");
}

function pad(text: string, width: number): string {
  // Pads by visible width (ANSI colour codes take no room).
  const visible = text.replace(/\u001b\[\d+m/g, "").length;
  return text + " ".repeat(Math.max(0, width - visible));
}

export function renderStatus(io: CliIO, session: Session, rows: StageRow[]): string {
  const lines: string[] = [];
  lines.push(io.colour("bold", `Workspace ${session.paths.root}`));
  lines.push(`Skills: ${session.skillsEnabled ? "enabled" : "disabled"}`);
  lines.push("");
  lines.push(
    io.colour("bold", `${pad("#", 4)}${pad("Stage", 32)}${pad("State", 10)}${pad("Check", 7)}Skills`),
  );
  for (const row of rows) {
    const state =
      row.state === "done"
        ? io.colour("green", "done")
        : row.state === "current"
          ? io.colour("yellow", "current")
          : io.colour("dim", "pending");
    const skills =
      row.skills.length === 0 ? io.colour("dim", "none") : row.skills.map((skill) => skill.id).join(", ");
    lines.push(
      `${pad(String(row.index), 4)}${pad(row.name, 32)}${pad(state, 10)}${pad(mark(io, row.check_passed), 7)}${skills}`,
    );
  }
  const current = rows.find((row) => row.state === "current");
  if (current && current.skills.length > 0) {
    lines.push("");
    lines.push(
      io.colour(
        "bold",
        `Skill evidence of stage '${current.name}'${current.force_use_skill ? " (required before Complete)" : " (optional)"}:`,
      ),
    );
    lines.push(
      io.colour(
        "bold",
        `${pad("Skill", 40)}${pad("Listed", 8)}${pad("Read", 6)}${pad("Used", 6)}Not Applicable`,
      ),
    );
    for (const skill of current.skills) {
      lines.push(
        `${pad(skill.id, 40)}${pad(mark(io, skill.listed), 8)}${pad(mark(io, skill.read), 6)}${pad(mark(io, skill.used), 6)}` +
          (skill.not_applicable ? `yes: ${skill.not_applicable}` : io.colour("dim", "-")),
      );
    }
    lines.push(`SetSkillUsage accepted the current evidence: ${mark(io, current.usage_validated)}`);
  }
  if (!current) lines.push("", io.colour("green", "The workflow is finished: every stage is complete."));
  const notes = session.skillsEnabled ? pythonHookNotes(session.catalog()) : [];
  if (notes.length > 0)
    lines.push("", io.colour("bold", "Skill notes:"), ...notes.map((note) => `  ${note}`));
  return lines.join("\n");
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command("status")
    .description(
      "Show the workflow's stages and the current stage's skill evidence (Listed/Read/Used/Not Applicable)",
    );
  addSessionOptions(command).addHelpText(
    "after",
    [
      "",
      "Examples:",
      "  skillgate status --workspace ./ws",
      "  skillgate status --workspace ./ws --json",
    ].join("\n"),
  );
  command.action(async (flags: SessionFlags) => {
    try {
      // A workspace kept by a socket server (an authority) answers through it: its state may not be ours to open.
      const { statusThroughServer } = await import("../../authority/index.js");
      const served = await statusThroughServer(sessionOptionsFrom(flags, flags.workspace));
      if (served) {
        io.out(flags.json ? JSON.stringify(served.json, null, 2) : served.text);
        return;
      }
      const { openSession } = await import("../../tools/index.js");
      const session = await openSession({
        ...sessionOptionsFrom(flags, flags.workspace),
        catalog: "static",
        onProgress: initProgressPrinter((text) => io.err(io.colour("dim", text))),
      });
      // Ledger health first: a refused ledger (other home, moved, replay) is shown, not hidden behind an error.
      const { ledgerHealthLines } = await import("../../evidence/index.js");
      const health = (await session.engine.ledgerHealth?.()) ?? { health: "unknown" };
      if (health.health === "refused") {
        const problem = health.problem as { code: string; message: string };
        if (flags.json)
          io.out(JSON.stringify({ ok: false, workspace: session.paths.root, ledger: health }, null, 2));
        else
          io.out(
            [io.colour("bold", `Workspace ${session.paths.root}`), ...ledgerHealthLines(health)].join("\n"),
          );
        io.setExitCode(1);
        void problem;
        return;
      }
      const current = await session.engine.current();
      const rows = stageRows(session, current);
      if (flags.json) {
        const status = await session.engine.status();
        io.out(
          JSON.stringify(
            {
              ok: true,
              workspace: session.paths.root,
              skills_enabled: session.skillsEnabled,
              current_stage: current ? current.config.name : null,
              stages: rows,
              status: status.structured,
              skill_notes: session.skillsEnabled ? pythonHookNotes(session.catalog()) : [],
              ledger: health,
            },
            null,
            2,
          ),
        );
        return;
      }
      io.out([renderStatus(io, session, rows), "", ...ledgerHealthLines(health)].join("\n"));
    } catch (error) {
      reportError(io, error, Boolean(flags.json));
    }
  });
}
