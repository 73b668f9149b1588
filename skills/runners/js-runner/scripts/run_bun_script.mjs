// Run a draft JS/TS script safely with Bun: find bun, syntax-check the draft, copy it to a fresh temp file
// in the system temp folder (so Bun auto-installs bare imports), `bun run` it, keep the temp file on failure.
// Usage: node run_bun_script.mjs DRAFT.(js|mjs|cjs|ts|mts|cts|jsx|tsx)   (DRAFT is resolved against the cwd)
// Exit codes: 0 success; 2 usage or a bad draft (no temp file written); 1 bun missing or the run failed
// (otherwise the script's own non-zero exit code).
import { spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { delimiter, extname, isAbsolute, join, resolve } from "node:path";
import { getTempFilePath, SCRIPT_EXTENSIONS } from "./get_temp_path.mjs";

const INSTALL_HELP =
  "install it with `npm install bun` (skillgate depends on the `bun` npm package: after `npm ci` it is " +
  "node_modules/.bin/bun) or see https://bun.sh/docs/installation; then put it on PATH or set SKILLGATE_BUN " +
  "to its path";

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** SKILLGATE_BUN when set (must be an executable file), else the first `bun` on PATH; null when none. */
export function findBun(env = process.env) {
  const configured = env.SKILLGATE_BUN;
  if (configured) {
    return isExecutableFile(configured)
      ? { path: configured }
      : { path: null, why: `SKILLGATE_BUN=${configured} is not an executable file` };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "bun");
    if (isExecutableFile(candidate)) return { path: candidate };
  }
  return { path: null, why: "SKILLGATE_BUN is not set and there is no bun on PATH" };
}

function fail(message, code) {
  process.stderr.write(`${message}\n`);
  return code;
}

function main(argv) {
  if (argv.length !== 1 || !argv[0].trim()) {
    return fail("usage: run_bun_script.mjs DRAFT.js|DRAFT.ts  (the path of the script you wrote, relative to the workspace)", 2);
  }
  const bun = findBun();
  if (!bun.path) return fail(`bun not found: ${bun.why}\n${INSTALL_HELP}`, 1);
  const draft = argv[0];
  const draftPath = isAbsolute(draft) ? draft : resolve(process.cwd(), draft);
  const ext = extname(draftPath).replace(/^\./, "");
  if (!SCRIPT_EXTENSIONS.includes(ext)) {
    return fail(`draft ${draft} has extension "${ext}": name it with one of .${SCRIPT_EXTENSIONS.join(", .")}`, 2);
  }
  let source;
  try {
    source = readFileSync(draftPath);
  } catch (error) {
    if (error.code === "ENOENT") return fail(`draft not found: ${draft} (resolved to ${draftPath}): write the script there first`, 2);
    return fail(`cannot read draft ${draft}: ${error.message}`, 2);
  }
  // Parse without bundling: catches syntax errors before any temp file exists, resolves no imports.
  const syntax = spawnSync(bun.path, ["build", "--no-bundle", draftPath], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (syntax.error) return fail(`cannot start ${bun.path}: ${syntax.error.message}\n${INSTALL_HELP}`, 1);
  if (syntax.status !== 0) {
    process.stderr.write(syntax.stderr);
    return fail(`syntax error in ${draft} (bun's message above)\nno temp file was written`, 2);
  }
  const tempPath = getTempFilePath(ext);
  writeFileSync(tempPath, source, { flag: "wx" });
  const run = spawnSync(bun.path, ["run", tempPath], { stdio: ["ignore", "inherit", "inherit"] });
  if (run.status === 0) {
    unlinkSync(tempPath);
    return 0;
  }
  const how = run.error
    ? `could not start: ${run.error.message}`
    : run.signal
      ? `was killed by ${run.signal}`
      : `failed with exit code ${run.status}`;
  return fail(`bun run ${how} (bun's output above)\ntemp file kept: ${tempPath}`, run.status > 0 ? run.status : 1);
}

process.exitCode = main(process.argv.slice(2));
