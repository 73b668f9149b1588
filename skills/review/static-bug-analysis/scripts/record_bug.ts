// Append one bug entry, in exactly the format the stage-1 checkers accept, to $OUT/static_bug_analysis.md.
// Usage: record_bug.ts --file F --line N --severity critical|high|medium|low --title T --description D
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  BUG_FILE_NAME,
  type BugInput,
  formatBugId,
  formatEntry,
  outDir,
  parseEntries,
  SEVERITIES,
  type Severity,
  TITLE_LINE,
} from "./lib/bug_format.js";

const USAGE =
  'usage: record_bug.ts --file PATH --line N --severity critical|high|medium|low --title "short title" --description "what is wrong, why, and the triggering input"';

class UsageError extends Error {}

function oneLine(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`--${name} is required`);
  if (/[\r\n]/.test(value)) throw new UsageError(`--${name} must be one line, got ${JSON.stringify(value)}`);
  return value.trim();
}

/** Where the file lives relative to DUT (when DUT is set) and a check that the line exists. */
function checkLocation(file: string, line: number, env: NodeJS.ProcessEnv): string {
  const dut = env.DUT;
  if (!dut) return file;
  const absolute = isAbsolute(file) ? file : join(dut, file);
  const rel = relative(resolve(dut), resolve(absolute));
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new UsageError(`--file ${file} is outside DUT (${dut}): give a path inside the target folder`);
  }
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new UsageError(`--file ${file} not found in DUT (${dut}): give the path relative to the target folder`);
  }
  const text = readFileSync(absolute, "utf8");
  const lineCount = text === "" ? 0 : text.replace(/\r?\n$/, "").split(/\r?\n/).length;
  if (line > lineCount) throw new UsageError(`--line ${line} is past the end of ${rel} (${lineCount} lines)`);
  return rel.split("\\").join("/");
}

function parseBug(argv: string[], env: NodeJS.ProcessEnv): BugInput {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        file: { type: "string" },
        line: { type: "string" },
        severity: { type: "string" },
        title: { type: "string" },
        description: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const get = (name: string) => values[name] as string | undefined;
  const lineText = oneLine("line", get("line"));
  if (!/^\d+$/.test(lineText) || Number(lineText) < 1) {
    throw new UsageError(`--line must be a positive whole number, got ${JSON.stringify(lineText)}`);
  }
  const severity = oneLine("severity", get("severity")).toLowerCase();
  if (!(SEVERITIES as readonly string[]).includes(severity)) {
    throw new UsageError(`--severity must be one of ${SEVERITIES.join(", ")}, got ${JSON.stringify(severity)}`);
  }
  const file = oneLine("file", get("file"));
  const line = Number(lineText);
  return {
    file: checkLocation(file, line, env),
    line,
    severity: severity as Severity,
    title: oneLine("title", get("title")),
    description: oneLine("description", get("description")),
  };
}

function main(argv: string[], env: NodeJS.ProcessEnv): number {
  let bug: BugInput;
  try {
    bug = parseBug(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`record_bug: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  const dir = outDir(env);
  const path = join(dir, BUG_FILE_NAME);
  mkdirSync(dir, { recursive: true });
  const existing = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (existing.trim() === "") writeFileSync(path, `${TITLE_LINE}\n\n`);
  else if (!existing.split(/\r?\n/).some((line) => line.trim() === TITLE_LINE)) {
    process.stderr.write(`warning: ${path} has no "${TITLE_LINE}" line; the checker needs it at the top\n`);
  }
  const entries = parseEntries(existing);
  const duplicate = entries.find(
    (entry) =>
      entry.fields.File === bug.file && entry.fields.Line === String(bug.line) && entry.title === bug.title,
  );
  if (duplicate) {
    process.stderr.write(`record_bug: already recorded as ${duplicate.id} in ${path}; nothing written\n`);
    return 1;
  }
  const number = entries.reduce((max, entry) => Math.max(max, entry.number), 0) + 1;
  if (number > 999) {
    process.stderr.write(`record_bug: ${path} already holds BUG-999; the format allows three digits\n`);
    return 1;
  }
  const separator = existing !== "" && !existing.endsWith("\n\n") ? (existing.endsWith("\n") ? "\n" : "\n\n") : "";
  appendFileSync(path, `${separator}${formatEntry(number, bug)}\n`);
  process.stdout.write(`recorded ${formatBugId(number)}: ${bug.title} (${bug.file}:${bug.line}, ${bug.severity}) in ${path}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2), process.env);
