// The `catalog` verb's work, free of commander: scan a root, print it as text or JSON (shared by both entries).
import fs from "node:fs";
import v8 from "node:v8";
import { SkillgateError } from "../../errors.js";
import { scanSkillRoot } from "../../skills/index.js";
import { type CliIO, EXIT_USAGE } from "../io.js";

export function runCatalog(root: string, json: boolean, io: CliIO): void {
  if (!fs.existsSync(root)) {
    const error = new SkillgateError(
      "PATH_NOT_FOUND",
      `skill root ${JSON.stringify(root)} does not exist; pass the folder that holds the skill folders`,
      { root },
    );
    if (json) io.out(JSON.stringify({ ok: false, error: error.toJSON() }, null, 2));
    else io.err(`${io.colour("red", "error")} [${error.code}]: ${error.message}`);
    io.setExitCode(EXIT_USAGE);
    return;
  }
  // A one-shot scan ends before TurboFan's code pays back its compile time on the helper threads: without
  // it a 2,000-skill catalog takes about a quarter less CPU (docs/performance.md). Only this process.
  v8.setFlagsFromString("--no-opt");
  const snapshot = scanSkillRoot(root);
  if (json) {
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
}
