// `skillgate init <ws>`: copy the skill pack into <ws>/.ucagent/skills and write runtime_config.json.
import type { Command } from "commander";
import { skillFlagsFromArgv } from "../../config/flags.js";
import { loadConfig } from "../../config/index.js";
import { type InitProgress, type InitReport, initWorkspace } from "../../workspace/index.js";
import { type CliIO, reportError } from "../io.js";

interface InitFlags {
  config?: string;
  json?: boolean;
  progress?: boolean;
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
  lines.push(`DUT: ${report.runtimeConfig.DUT}`);
  lines.push(`OUT: ${report.runtimeConfig.OUT}`);
  lines.push(`Runtime config: ${report.runtimeConfigFile}`);
  for (const warning of report.warnings) lines.push(io.colour("yellow", `warning: ${warning}`));
  return lines.join("\n");
}

export function register(program: Command, io: CliIO): void {
  // Skill flags in the order given: the loader's rules (last wins, conflicts anywhere) need the sequence.
  const skillArgv: string[] = [];
  const command = program
    .command("init")
    .argument("<workspace>", "workspace folder (created if missing)")
    .description(
      "Copy the skill pack into <ws>/.ucagent/skills (extra paths under ext/) and write runtime_config.json",
    )
    .option(
      "--config <file>",
      "extra config file layered over ~/.skillgate/config.yaml and <ws>/.ucagent/setting.yaml",
    )
    .option("--use-skill", "turn skill support on (overrides config)")
    .option("--no-use-skill", "turn skill support off: nothing is copied (overrides config)")
    .option(
      "--extra-skill-path <path>",
      "extra skill folder copied under skills/ext/ (repeatable; enables skills)",
    )
    .option("--progress", "always show copy progress on stderr")
    .option("--json", "print JSON instead of text")
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  skillgate init ./ws",
        "  skillgate init ./ws --extra-skill-path ./my-skills",
        "  skillgate init ./ws --no-use-skill --json",
      ].join("\n"),
    );
  command.on("option:use-skill", () => skillArgv.push("--use-skill"));
  command.on("option:no-use-skill", () => skillArgv.push("--no-use-skill"));
  command.on("option:extra-skill-path", (value: string) => skillArgv.push("--extra-skill-path", value));
  command.action(async (workspace: string, flags: InitFlags) => {
    try {
      // Only the owner of the state folder (the authority, in authority mode) may re-initialise it.
      const { refuseForeignState } = await import("../../authority/mode.js");
      const { workspacePaths } = await import("../../workspace/paths.js");
      await refuseForeignState(workspacePaths(workspace), process.getuid?.() ?? -1);
      const skillFlags = skillFlagsFromArgv(skillArgv);
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
      const report = await initWorkspace({ workspace, config, onProgress });
      if (flags.json) io.out(JSON.stringify({ ok: true, config_sources: sources, ...report }, null, 2));
      else io.out(renderInitReport(io, report));
    } catch (error) {
      reportError(io, error, Boolean(flags.json));
    }
  });
}
