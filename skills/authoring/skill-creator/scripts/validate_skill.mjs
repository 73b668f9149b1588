// Validate skill folders against the Agent Skills spec (strict): prints `path: message` per problem, `ok: path` when valid.
// Usage: node validate_skill.mjs SKILL_DIR [SKILL_DIR...]   (exit 0 all valid, 1 a problem, 2 usage)
import { resolve } from "node:path";
import { validateSkillDir } from "./lib/spec.mjs";

function main(argv) {
  if (argv.length === 0) {
    process.stderr.write("usage: validate_skill.mjs SKILL_DIR [SKILL_DIR...]\n");
    return 2;
  }
  let failed = false;
  for (const arg of argv) {
    const problems = validateSkillDir(resolve(arg));
    if (problems.length === 0) process.stdout.write(`ok: ${arg}\n`);
    for (const problem of problems) process.stdout.write(`${problem.path}: ${problem.message}\n`);
    failed ||= problems.length > 0;
  }
  return failed ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
