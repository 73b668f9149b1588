// `skillgate init <ws>`: copy the skill pack into <ws>/.ucagent/skills and write runtime_config.json.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { loadConfig } from "../../config/index.js";
import { scanSkillRoot } from "../../skills/index.js";
import { assertWorkflowStartable, validateWorkflow } from "../../stage/index.js";
import { type InitProgress, type InitReport, initWorkspace } from "../../workspace/index.js";
import { type CliIO, reportError } from "../io.js";
import { addSkillOptions, skillFlagsOf } from "../session-options.js";

interface InitFlags {
  adopt?: boolean;
  config?: string;
  json?: boolean;
  progress?: boolean;
  dut?: string;
}

/** The warning for a target folder that is not there (init and serve print it; tools would find nothing). */
export function dutMissingWarning(dut: string): string {
  return `DUT ${dut} does not exist: put the target there, or pass --dut PATH (the folder of the program under work)`;
}

/** Shown only when the copy is big enough for the wait to be noticed. */
const PROGRESS_MIN_FILES = 200;
const PROGRESS_INTERVAL_MS = 100;

export function renderInitReport(io: CliIO, report: InitReport): string {
  const lines: string[] = [];
  lines.push(io.colour("bold", `Initialised workspace ${report.workspace}`));
  if (!report.skillsEnabled) {
    lines.push("Skills: disabled (nothing copied)");
  } else {
    lines.push(`Skills: ${report.skills.length} copied to ${report.skillsDir} from ${report.packPath}`);
    for (const extra of report.extraPaths) lines.push(`  extra path: ${extra} (under ext/)`);
    lines.push(
      `Files: ${report.files} (${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed)`,
    );
    if (report.excluded.length > 0)
      lines.push(`Left out by enable/disable lists: ${report.excluded.join(", ")}`);
  }
  if (report.guides.source !== null)
    lines.push(`Guides: ${report.guides.files.length} in ${report.guides.dir} from ${report.guides.source}`);
  // Never print a DUT path as if it were there.
  const dut = report.runtimeConfig.DUT;
  lines.push(existsSync(dut) ? `DUT: ${dut}` : "DUT: none (see the warning below)");
  lines.push(`OUT: ${report.runtimeConfig.OUT}`);
  lines.push(`Runtime config: ${report.runtimeConfigFile}`);
  const warnings = existsSync(dut) ? report.warnings : [...report.warnings, dutMissingWarning(dut)];
  for (const warning of warnings) lines.push(io.colour("yellow", `warning: ${warning}`));
  return lines.join("\n");
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command("init")
    .argument("<workspace>", "workspace folder (created if missing)")
    .description(
      "Copy the skill pack into <ws>/.ucagent/skills (extra paths under ext/) and write runtime_config.json",
    )
    .option(
      "--config <file>",
      "extra config file layered over ~/.skillgate/config.yaml and <ws>/.ucagent/setting.yaml",
    );
  addSkillOptions(command, {
    noUseSkill: "turn skill support off: nothing is copied (overrides config)",
    extraSkillPath: "extra skill folder copied under skills/ext/ (repeatable; enables skills)",
  })
    .option(
      "--dut <path>",
      "the target under work (DUT), relative to the current folder (overrides config DUT)",
    )
    .option(
      "--adopt",
      "re-sign the evidence ledger of a workspace that was moved or copied here (recorded in the ledger)",
    )
    .option("--progress", "always show copy progress on stderr")
    .option("--json", "print JSON instead of text")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  skillgate init ./ws",
        "  skillgate init ./ws --dut ./my-program",
        "  skillgate init ./ws --extra-skill-path ./my-skills",
        "  skillgate init ./ws --no-use-skill --json",
      ].join("\n"),
    );
  command.action(async (workspace: string, flags: InitFlags) => {
    try {
      // Only the owner of the state folder (the authority, in authority mode) may re-initialise it.
      const { refuseForeignState } = await import("../../authority/index.js");
      const { workspacePaths } = await import("../../contracts/index.js");
      await refuseForeignState(workspacePaths(workspace), process.getuid?.() ?? -1);
      const { useSkill, extraSkillPaths } = skillFlagsOf(command);
      const skillFlags = { ...(useSkill === undefined ? {} : { useSkill }), extraSkillPaths };
      const { config, sources } = await loadConfig({
        workspace,
        configFile: flags.config,
        flags: skillFlags,
      });
      const showProgress = Boolean(flags.progress) || (Boolean(process.stderr.isTTY) && !flags.json);
      let lastShown = 0;
      const onProgress = ({ copied, total }: InitProgress) => {
        if (!showProgress || (!flags.progress && total < PROGRESS_MIN_FILES)) return;
        const now = Date.now();
        if (copied !== total && now - lastShown < PROGRESS_INTERVAL_MS) return;
        lastShown = now;
        io.err(`copying skills: ${copied}/${total} files`);
      };
      if (flags.dut !== undefined) config.DUT = resolve(flags.dut);
      const { adoptIfAsked, ledgerLinesAfterInit } = await import("./init-ledger.js");
      const adopted = await adoptIfAsked(workspace, Boolean(flags.adopt));
      const report = await initWorkspace({ workspace, config, onProgress });
      // As UCAgent builds its stages at start, a workflow that cannot run fails init, not the first tool call.
      const catalog =
        report.skillsEnabled && existsSync(report.skillsDir) ? scanSkillRoot(report.skillsDir) : null;
      assertWorkflowStartable(
        validateWorkflow(config, catalog, report.skillsEnabled, { rootLabel: ".ucagent/skills" }),
        `workspace ${report.workspace}`,
      );
      // The engine binds the workflow and manifest in the signed ledger, recording what this init changed.
      const { openSession } = await import("../../tools/index.js");
      const session = await openSession({
        workspace,
        configFile: flags.config,
        flags: skillFlags,
        recordInit: true,
      });
      const ledger = await ledgerLinesAfterInit(session, adopted);
      const dutExists = existsSync(report.runtimeConfig.DUT);
      if (flags.json) {
        const warnings = dutExists
          ? report.warnings
          : [...report.warnings, dutMissingWarning(report.runtimeConfig.DUT)];
        io.out(
          JSON.stringify(
            {
              ok: true,
              config_sources: sources,
              ...report,
              warnings,
              dut_exists: dutExists,
              ledger: ledger.json,
            },
            null,
            2,
          ),
        );
      } else io.out([renderInitReport(io, report), ...ledger.lines].join("\n"));
    } catch (error) {
      reportError(io, error, Boolean(flags.json));
    }
  });
}
