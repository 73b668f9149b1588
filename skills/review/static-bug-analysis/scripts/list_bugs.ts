// List the bug entries recorded in $OUT/static_bug_analysis.md and report any entry the stage-1 checkers would reject.
// Usage: list_bugs.ts   (exit 0: entries listed, all valid; 1: no file, no entries, or a malformed entry)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BUG_FILE_NAME, outDir, parseEntries, TITLE_LINE } from "./lib/bug_format.js";

function main(argv: string[], env: NodeJS.ProcessEnv): number {
  if (argv.length > 0) {
    process.stderr.write(`list_bugs: takes no arguments, got ${JSON.stringify(argv)}\n`);
    return 2;
  }
  const path = join(outDir(env), BUG_FILE_NAME);
  if (!existsSync(path)) {
    process.stderr.write(`no bug file at ${path} yet: record a bug with record_bug.ts first\n`);
    return 1;
  }
  const text = readFileSync(path, "utf8");
  const entries = parseEntries(text);
  let problems = 0;
  if (!text.split(/\r?\n/).some((line) => line.trim() === TITLE_LINE)) {
    process.stdout.write(`${path}: missing the title line "${TITLE_LINE}"\n`);
    problems++;
  }
  if (entries.length === 0) {
    process.stdout.write(`${path}: no entries (a heading like "## BUG-001: <title>")\n`);
    return 1;
  }
  process.stdout.write(`${entries.length} bug entr${entries.length === 1 ? "y" : "ies"} in ${path}:\n`);
  for (const entry of entries) {
    const where = `${entry.fields.File ?? "?"}:${entry.fields.Line ?? "?"}`;
    process.stdout.write(`${entry.id} [${entry.fields.Severity ?? "?"}] ${where} ${entry.title}\n`);
    for (const problem of entry.problems) {
      process.stdout.write(`  problem (line ${entry.headingLine}): ${problem}\n`);
      problems++;
    }
  }
  const ids = entries.map((entry) => entry.id);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  for (const id of new Set(repeated)) {
    process.stdout.write(`  problem: ${id} is used more than once\n`);
    problems++;
  }
  return problems === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2), process.env);
