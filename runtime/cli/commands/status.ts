// `skillgate status`: the Status tool's report printed as a stage table (or JSON); a served workspace answers through its server.
import type { Command } from "commander";
import type { StatusReport } from "../../stage/index.js";
import { type CliIO, EXIT_FAILED, reportError } from "../io.js";
import {
  addSessionOptions,
  initProgressPrinter,
  type SessionFlags,
  sessionOptionsFrom,
} from "../session-options.js";

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
  command.action(async (flags: SessionFlags, self: Command) => {
    try {
      // A workspace kept by a socket server (an authority) answers through it: its state may not be ours to open.
      const { statusThroughServer } = await import("../../authority/index.js");
      const served = await statusThroughServer(sessionOptionsFrom(self, flags, flags.workspace));
      if (served) {
        io.out(flags.json ? JSON.stringify(served.json, null, 2) : served.text);
        return;
      }
      const { openSession } = await import("../../tools/index.js");
      const session = await openSession({
        ...sessionOptionsFrom(self, flags, flags.workspace),
        catalog: "static",
        onProgress: initProgressPrinter((text) => io.err(io.colour("dim", text))),
      });
      const { ledgerHealthLines } = await import("../../evidence/index.js");
      // Ledger health first: a refused ledger (other home, moved, replay) is shown, not hidden behind an error.
      const health = (await session.engine.ledgerHealth?.()) ?? { health: "unknown" };
      if (health.health === "refused") {
        if (flags.json)
          io.out(JSON.stringify({ ok: false, workspace: session.paths.root, ledger: health }, null, 2));
        else
          io.out(
            [io.colour("bold", `Workspace ${session.paths.root}`), ...ledgerHealthLines(health)].join("\n"),
          );
        io.setExitCode(EXIT_FAILED);
        return;
      }
      // The report is the Status tool's own (same call, same warnings), rendered for the terminal here.
      const { callTool } = await import("../../tools/index.js");
      const status = await callTool(session, "Status", {});
      const { renderStatusTable, stageRows } = await import("../../stage/index.js");
      const report = status.structured as unknown as StatusReport;
      const { pythonHookNotes } = await import("../../skills/index.js");
      const notes = session.skillsEnabled ? pythonHookNotes(session.catalog()) : [];
      if (flags.json) {
        const json = {
          ok: true,
          workspace: session.paths.root,
          skills_enabled: report.skills_enabled,
          current_stage: report.current_stage_name,
          stages: stageRows(report),
          status: status.structured,
          skill_notes: notes,
          ledger: report.ledger,
        };
        io.out(JSON.stringify(json, null, 2));
        return;
      }
      io.out(renderStatusTable(report, { workspace: session.paths.root, colour: io.colour, notes }));
    } catch (error) {
      reportError(io, error, Boolean(flags.json));
    }
  });
}
