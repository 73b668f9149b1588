// Create a new skill skeleton: <parent>/<name>/SKILL.md (valid frontmatter), scripts/, references/.
// Usage: node create_skill.mjs NAME --description "what it does and when to use it" [--path PARENT_DIR]
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MAX_DESCRIPTION, nameProblems } from "./lib/spec.mjs";

const USAGE = 'usage: create_skill.mjs NAME --description "what it does and when to use it" [--path PARENT_DIR]';

function fail(message) {
  process.stderr.write(`create_skill: ${message}\n${USAGE}\n`);
  return 2;
}

function skillMarkdown(name, description) {
  return `---
name: ${name}
description: ${JSON.stringify(description)}
license: MIT
metadata:
  version: "0.1.0"
---

# ${name}

## When to use

State the situations this skill is for, and when not to use it.

## Method

1. First step, concrete enough to follow without guessing.
2. Next step. Say which script to run and with which arguments, if any.
3. How to check the result.

## Files

- \`scripts/\` — helper scripts (one file each, run by the host; list them here with their arguments).
- \`references/\` — longer material the method points to (read on demand).
`;
}

function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { description: { type: "string" }, path: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail(error.message);
  }
  const [name, ...extra] = parsed.positionals;
  if (!name || extra.length > 0) return fail("give exactly one skill NAME");
  const problems = nameProblems(name);
  if (problems.length > 0) return fail(problems.join("; "));
  const description = (parsed.values.description ?? "").trim();
  if (description === "") return fail("--description is required: say what the skill does and when to use it");
  if (/[\r\n]/.test(description)) return fail("--description must be one line");
  if ([...description].length > MAX_DESCRIPTION) return fail(`--description is over ${MAX_DESCRIPTION} characters`);
  const dir = resolve(parsed.values.path ?? ".", name);
  if (existsSync(dir)) return fail(`${dir} already exists: pick another name or folder`);
  mkdirSync(join(dir, "scripts"), { recursive: true });
  mkdirSync(join(dir, "references"), { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), skillMarkdown(name, description));
  writeFileSync(join(dir, "scripts", ".gitkeep"), "");
  writeFileSync(join(dir, "references", ".gitkeep"), "");
  process.stdout.write(`created ${dir}\n  SKILL.md\n  scripts/\n  references/\nnext: write the method in SKILL.md, then validate_skill.mjs ${dir}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
