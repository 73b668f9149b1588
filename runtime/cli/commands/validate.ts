// `skillgate validate PATH...`: checks skill folders (or roots of many) in ucagent, strict or lenient mode.
import fs from "node:fs";
import path from "node:path";
import { type Command, Option } from "commander";
import { shownBelow } from "../../contracts/index.js";
import { SkillgateError } from "../../errors.js";
import { type Diagnostic, scanSkillRoot, type ValidationMode, validateSkillDir } from "../../skills/index.js";
import { type CliIO, EXIT_FAILED, EXIT_USAGE } from "../io.js";

interface CheckedSkill {
  path: string;
  id: string | null;
  ok: boolean;
  diagnostics: Diagnostic[];
}

export interface ValidateReport {
  ok: boolean;
  mode: ValidationMode;
  skills: CheckedSkill[];
  /** Problems of the walk itself (depth/count limits, symlinks, unreadable folders, empty roots). */
  diagnostics: Diagnostic[];
}

/** Pure apart from reading the folders: what `validate` reports for the given paths. */
export function validatePaths(paths: string[], mode: ValidationMode): ValidateReport {
  const skills: CheckedSkill[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const given of paths) {
    // A path to a SKILL.md file means its folder.
    const resolved = path.resolve(given);
    const absolute =
      path.basename(resolved) === "SKILL.md" && fs.statSync(resolved).isFile()
        ? path.dirname(resolved)
        : resolved;
    if (fs.existsSync(path.join(absolute, "SKILL.md"))) {
      const result = validateSkillDir(absolute, mode);
      skills.push({
        path: absolute,
        id: result.skill?.id ?? path.basename(absolute),
        ok: result.ok,
        diagnostics: result.diagnostics,
      });
      continue;
    }
    const snapshot = scanSkillRoot(absolute, { mode });
    for (const skill of snapshot.skills) {
      skills.push({ path: skill.dir, id: skill.id, ok: true, diagnostics: skill.diagnostics });
    }
    const skippedByFolder = new Map<string, Diagnostic[]>();
    for (const diagnostic of snapshot.skipped) {
      if (path.basename(diagnostic.path) === "SKILL.md" && diagnostic.severity === "error") {
        const folder = path.dirname(diagnostic.path);
        skippedByFolder.set(folder, [...(skippedByFolder.get(folder) ?? []), diagnostic]);
      } else diagnostics.push(diagnostic);
    }
    for (const [folder, list] of skippedByFolder) {
      skills.push({
        path: folder,
        id: path.relative(absolute, folder).split(path.sep).join("/"),
        ok: false,
        diagnostics: list,
      });
    }
    if (snapshot.skills.length === 0 && skippedByFolder.size === 0 && snapshot.skipped.length === 0) {
      diagnostics.push({
        path: absolute,
        code: "NO_SKILLS",
        message: `no folder holding a SKILL.md under ${absolute}; pass a skill folder or a folder of skills`,
        severity: "error",
      });
    }
  }
  const ok =
    skills.every((skill) => skill.ok) && !diagnostics.some((diagnostic) => diagnostic.severity === "error");
  return { ok, mode, skills, diagnostics };
}

function shown(file: string): string {
  return shownBelow(process.cwd(), file);
}

export function register(program: Command, io: CliIO): void {
  program
    .command("validate")
    .description(
      "Check skill folders (or folders of skills) against the UCAgent loader, the Agent Skills spec (strict) or lenient rules.",
    )
    .argument(
      "<paths...>",
      "skill folders (holding SKILL.md), SKILL.md files, or folders holding many skills",
    )
    .addOption(
      new Option(
        "--mode <mode>",
        "ucagent (the default loader), strict (the Agent Skills spec), lenient (third-party skills)",
      )
        .choices(["ucagent", "strict", "lenient"])
        .default("ucagent"),
    )
    .option("--json", "print the report as JSON")
    .action((paths: string[], options: { mode: ValidationMode; json?: boolean }) => {
      const missing = paths.filter((given) => !fs.existsSync(given));
      if (missing.length > 0) {
        const error = new SkillgateError(
          "PATH_NOT_FOUND",
          `path ${missing.map((given) => JSON.stringify(given)).join(", ")} does not exist; pass a skill folder (holding SKILL.md) or a folder of skills`,
          { paths: missing },
        );
        if (options.json) io.out(JSON.stringify({ ok: false, error: error.toJSON() }, null, 2));
        else io.err(`${io.colour("red", "error")} [${error.code}]: ${error.message}`);
        io.setExitCode(EXIT_USAGE);
        return;
      }
      const report = validatePaths(paths, options.mode);
      if (options.json) io.out(JSON.stringify(report, null, 2));
      else {
        for (const diagnostic of [
          ...report.diagnostics,
          ...report.skills.flatMap((skill) => skill.diagnostics),
        ]) {
          const label = diagnostic.severity === "warning" ? `${io.colour("yellow", "warning")}: ` : "";
          io.out(`${shown(diagnostic.path)}: ${label}${diagnostic.message}`);
        }
        const invalid = report.skills.filter((skill) => !skill.ok).length;
        const summary = `${report.skills.length} skill(s) checked in ${options.mode} mode: ${report.skills.length - invalid} valid, ${invalid} invalid`;
        io.out(report.ok ? io.colour("green", summary) : io.colour("red", summary));
      }
      if (!report.ok) io.setExitCode(EXIT_FAILED);
    });
}
