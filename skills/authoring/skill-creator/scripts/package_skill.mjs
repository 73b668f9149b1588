// Package a valid skill folder into <name>.zip (the folder at the archive root); refuses an invalid skill.
// Usage: node package_skill.mjs SKILL_DIR [--out FILE.zip]   (default: <name>.zip beside the folder)
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { validateSkillDir } from "./lib/spec.mjs";
import { buildZip } from "./lib/zip.mjs";

const SKIPPED = new Set(["node_modules", "__pycache__"]);

/** Files under dir, sorted, skipping dot-files/folders, node_modules and __pycache__; symlinks are refused. */
function collectFiles(dir) {
  const files = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const full = join(current, entry.name);
      if (entry.isSymbolicLink()) throw new Error(`${full} is a symbolic link: replace it with the real file`);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(dir);
  return files;
}

function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { out: { type: "string" } }, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`package_skill: ${error.message}\nusage: package_skill.mjs SKILL_DIR [--out FILE.zip]\n`);
    return 2;
  }
  if (parsed.positionals.length !== 1) {
    process.stderr.write("usage: package_skill.mjs SKILL_DIR [--out FILE.zip]\n");
    return 2;
  }
  const dir = resolve(parsed.positionals[0]);
  const problems = validateSkillDir(dir);
  if (problems.length > 0) {
    for (const problem of problems) process.stdout.write(`${problem.path}: ${problem.message}\n`);
    process.stderr.write("package_skill: the skill is not valid; fix the problems above, nothing was written\n");
    return 1;
  }
  const name = basename(dir);
  const out = resolve(parsed.values.out ?? join(dirname(dir), `${name}.zip`));
  if (!out.endsWith(".zip")) {
    process.stderr.write(`package_skill: --out ${out} must end with .zip\n`);
    return 2;
  }
  if (out.startsWith(`${dir}/`)) {
    process.stderr.write(`package_skill: --out ${out} is inside the skill folder; write it elsewhere\n`);
    return 2;
  }
  let files;
  try {
    files = collectFiles(dir);
  } catch (error) {
    process.stderr.write(`package_skill: ${error.message}\n`);
    return 1;
  }
  const entries = files.map((file) => {
    const stat = statSync(file);
    return {
      name: `${name}/${relative(dir, file).split("\\").join("/")}`,
      data: readFileSync(file),
      mtime: stat.mtime,
      mode: stat.mode,
    };
  });
  writeFileSync(out, buildZip(entries));
  process.stdout.write(`packaged ${entries.length} files of ${name} into ${out}\n`);
  for (const entry of entries) process.stdout.write(`  ${entry.name}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
