// `skillgate catalog ROOT`: the skills found under a root (id, name, description, scripts) and why others were skipped.
import fs from "node:fs";
import type { Command } from "commander";
import { SkillgateError } from "../../errors.js";
import { scanSkillRoot } from "../../skills/index.js";
import { type CliIO, EXIT_USAGE } from "../io.js";

export function register(program: Command, io: CliIO): void {
  program
    .command("catalog")
    .description("List the skills under a skill root in catalog order, with the diagnostics of skipped ones.")
    .argument("<root>", "folder holding skill folders (e.g. <workspace>/.ucagent/skills)")
    .option("--json", "print the catalog as JSON")
    .action((root: string, options: { json?: boolean }) => {
      if (!fs.existsSync(root)) {
        const error = new SkillgateError(
          "PATH_NOT_FOUND",
          `skill root ${JSON.stringify(root)} does not exist; pass the folder that holds the skill folders`,
          { root },
        );
        if (options.json) io.out(JSON.stringify({ ok: false, error: error.toJSON() }, null, 2));
        else io.err(`${io.colour("red", "error")} [${error.code}]: ${error.message}`);
        io.setExitCode(EXIT_USAGE);
        return;
      }
      const snapshot = scanSkillRoot(root);
      if (options.json) {
        const skills = snapshot.skills.map((skill) => ({
          id: skill.id,
          name: skill.name,
          description: skill.description,
          metadata: skill.metadata,
          scripts: skill.scripts,
          hasHooks: skill.hasHooks,
          path: skill.skillFile,
          warnings: skill.diagnostics,
        }));
        io.out(JSON.stringify({ ok: true, root: snapshot.root, skills, skipped: snapshot.skipped }, null, 2));
        return;
      }
      io.out(io.colour("bold", `${snapshot.skills.length} skill(s) in ${snapshot.root}`));
      for (const skill of snapshot.skills) {
        io.out(`${io.colour("bold", skill.id)}  (name: ${skill.name})`);
        io.out(`  ${skill.description}`);
        if (skill.scripts.length > 0) io.out(`  scripts: ${skill.scripts.join(", ")}`);
        for (const warning of skill.diagnostics)
          io.out(`  ${io.colour("yellow", "warning")}: ${warning.message}`);
      }
      if (snapshot.skipped.length > 0) {
        io.out(io.colour("bold", `${snapshot.skipped.length} problem(s):`));
        for (const diagnostic of snapshot.skipped) io.out(`${diagnostic.path}: ${diagnostic.message}`);
      }
    });
}
