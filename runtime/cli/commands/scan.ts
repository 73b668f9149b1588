// `skillgate scan PATH`: static scan of a file, skill folder or skill root; exit 1 only on critical findings.
import { type Command, Option } from "commander";
import { SkillgateError } from "../../errors.js";
import {
  countBySeverity,
  criticalFindings,
  type Finding,
  type ScanSeverity,
  SEVERITIES,
  scanFiles,
} from "../../scan/index.js";
import { type CliIO, EXIT_FAILED, EXIT_USAGE, reportError } from "../io.js";

interface ScanFlags {
  json?: boolean;
  minSeverity: ScanSeverity;
  rules?: string;
}

const SEVERITY_COLOUR = { critical: "red", high: "red", medium: "yellow", low: "dim", info: "dim" } as const;

function printText(io: CliIO, findings: readonly Finding[]): void {
  for (const finding of findings) {
    const severity = io.colour(SEVERITY_COLOUR[finding.severity], finding.severity);
    io.out(
      `${finding.file}:${finding.line}:${finding.column} ${severity} ${finding.ruleId} ${finding.message}`,
    );
  }
  const counts = countBySeverity(findings);
  const breakdown = [...SEVERITIES]
    .reverse()
    .map((severity) => `${counts[severity]} ${severity}`)
    .join(", ");
  io.err(
    `${findings.length} finding${findings.length === 1 ? "" : "s"} (${breakdown}). ` +
      "The scan is advisory below critical and never a substitute for the sandbox.",
  );
}

export function register(program: Command, io: CliIO): void {
  program
    .command("scan")
    .description(
      "Statically scan a script, a skill folder or a skill root for risky code. Advisory below critical; " +
        "never a substitute for the sandbox. Exit 1 when a critical finding exists.",
    )
    .argument("[path]", "a file, a skill folder or a skill root")
    .option("--json", "print { ok, path, counts, findings } as JSON")
    .addOption(
      new Option("--min-severity <level>", "hide findings below this severity")
        .choices(SEVERITIES)
        .default("info"),
    )
    .option("--rules <file>", "use this rules YAML file instead of the bundled runtime/scan/rules.yaml")
    .action(async (path: string | undefined, flags: ScanFlags) => {
      const json = flags.json === true;
      try {
        if (path === undefined || path === "") {
          throw new SkillgateError(
            "USAGE",
            "skillgate scan: missing PATH. Fix: name a file, a skill folder or a skill root, e.g. `skillgate scan skills/`.",
          );
        }
        const findings = await scanFiles([path], { minSeverity: flags.minSeverity, rulesFile: flags.rules });
        const critical = criticalFindings(findings).length;
        if (json) {
          io.out(
            JSON.stringify(
              { ok: critical === 0, path, counts: countBySeverity(findings), findings },
              null,
              2,
            ),
          );
        } else {
          printText(io, findings);
        }
        if (critical > 0) io.setExitCode(EXIT_FAILED);
      } catch (error) {
        reportError(io, error, json);
        // Exit 1 means "critical findings"; a scan that could not run (bad path, bad rules file) is exit 2.
        io.setExitCode(EXIT_USAGE);
      }
    });
}
