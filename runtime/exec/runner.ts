// Resolves the runner executable of a skill script: skill mapping → pack mapping by extension → built-ins.
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, delimiter, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SkillgateError } from "../errors.js";
import { pyenvRoot, pyenvVersions } from "./pyenv-version.js";

export interface RunnerResolution {
  /** Absolute path of the executable that runs the script (pyenv shims resolved to the real interpreter). */
  runner: string;
  /** Where the mapping came from: the config file path, or "built-in". */
  source: string;
}

export interface ResolveRunnerInput {
  scriptPath: string;
  skillDir: string;
  skillsRoot: string;
  /** PATH to search (defaults to process.env.PATH). */
  path?: string;
  /** The run's working folder (the workspace): pyenv's nearest .python-version is looked up from here. */
  cwd?: string;
}

const BUILT_IN_RUNNERS: Record<string, string> = { ".py": "python3", ".sh": "bash", ".bash": "bash" };

/** Runners skillgate ships as npm dependencies: found in its own node_modules/.bin when not on PATH. */
const BUNDLED_RUNNERS = new Set(["tsx", "bun", "bunx"]);

/**
 * skillgate's own node_modules/.bin (this file lives in runtime/exec/ or dist/runtime/exec/). Installed as a
 * dependency (npx, npm install), skillgate is itself inside node_modules and its deps sit beside it: the
 * .bin of that enclosing node_modules is the one.
 */
export function ownBinDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate =
      basename(dir) === "node_modules" ? join(dir, ".bin") : join(dir, "node_modules", ".bin");
    if (isExecutable(join(candidate, "tsx"))) return candidate;
    dir = dirname(dir);
  }
  // No tsx found: there is no node_modules of ours to offer (binding a missing folder would make bwrap fail).
  return null;
}

/** skillgate's own package folder (holding its package.json), or null when it cannot be found. */
export function ownPackageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (manifest.name === "skillgate") return dir;
    } catch {
      // not here
    }
    dir = dirname(dir);
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Finds `name` on PATH (or skillgate's node_modules/.bin for bundled runners); null when absent. */
export function findExecutable(name: string, searchPath: string = process.env.PATH ?? ""): string | null {
  if (isAbsolute(name)) return isExecutable(name) ? name : null;
  // Relative PATH entries ("", ".") would resolve against the current folder, which a skill may fill.
  const dirs = searchPath.split(delimiter).filter((dir) => isAbsolute(dir));
  const ownBin = BUNDLED_RUNNERS.has(name) ? ownBinDir() : null;
  if (ownBin !== null) dirs.push(ownBin);
  for (const dir of dirs) {
    const candidate = resolve(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * A pyenv shim is a bash script that needs pyenv, its root and its version files at run time: none of
 * that is visible in the sandbox, so the shim is replaced by the interpreter it would have started. Resolved
 * in process (no `pyenv which`, which would run code from the shim's folder) and only for shims of the real
 * PYENV_ROOT, with version names that must be plain folder names under its versions/.
 */
export function resolveShim(
  executable: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  if (basename(dirname(executable)) !== "shims") return executable;
  const root = pyenvRoot(env);
  if (root === null) return executable;
  // The selected versions are read on every call (a few opens): the workspace's .python-version may change.
  const versions = pyenvVersions(root, env, cwd);
  const key = `${executable}\0${root}\0${versions.join("\0")}\0${env.PATH ?? ""}`;
  const known = shimCache.get(key);
  if (known !== undefined) return known;
  const real = resolveShimUncached(executable, env, root, versions);
  shimCache.set(key, real);
  return real;
}

/** The answer depends on the executable, the real pyenv root, the selected versions and (for "system") PATH. */
const shimCache = new Map<string, string>();

function resolveShimUncached(
  executable: string,
  env: NodeJS.ProcessEnv,
  root: string,
  versions: string[],
): string {
  const dir = dirname(executable);
  let shimRoot: string;
  try {
    shimRoot = realpathSync(dirname(dir));
  } catch {
    return executable;
  }
  if (shimRoot !== root) return executable;
  const name = basename(executable);
  for (const version of versions) {
    if (version === "system") {
      const path = (env.PATH ?? "")
        .split(delimiter)
        .filter((entry) => isAbsolute(entry) && resolve(entry) !== resolve(dir));
      const system = findExecutable(name, path.join(delimiter));
      if (system !== null) return system;
      continue;
    }
    // A version is a folder name, never a path that could lead out of versions/.
    if (!/^[\w.+-]+$/.test(version) || version.startsWith(".")) continue;
    const candidate = join(root, "versions", version, "bin", name);
    if (isExecutable(candidate)) return candidate;
  }
  return executable;
}

type MappingFile = { ok: true; mapping: Record<string, unknown> | null } | { ok: false; problem: string };

async function readMapping(file: string): Promise<MappingFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { ok: true, mapping: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `is not valid JSON (${reason})` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    const kind = parsed === null ? "null" : Array.isArray(parsed) ? "an array" : `a ${typeof parsed}`;
    return { ok: false, problem: `must be a JSON object mapping names to runners, got ${kind}` };
  }
  return { ok: true, mapping: parsed as Record<string, unknown> };
}

function invalid(script: string, file: string, problem: string, fix: string): SkillgateError {
  return new SkillgateError(
    "RUNNER_CONFIG_INVALID",
    `runner for script '${script}': ${file} ${problem}; fix: ${fix}`,
    {
      script,
      file,
    },
  );
}

function checkRunnerValue(script: string, file: string, key: string, value: unknown): string {
  if (typeof value !== "string" || value.trim().length === 0) {
    return fail(
      invalid(
        script,
        file,
        `maps "${key}" to an empty runner (${JSON.stringify(value)})`,
        `set "${key}" to one executable name, e.g. "tsx" or "python3"`,
      ),
    );
  }
  if (/[/\\]/.test(value) || value.startsWith(".") || value.startsWith("-") || value.includes("\0")) {
    return fail(
      invalid(
        script,
        file,
        `maps "${key}" to "${value}", which is a path, not a bare executable name (a skill may not name a program on the host)`,
        `set "${key}" to a bare executable name found on PATH or bundled with skillgate, e.g. "tsx", "node", "python3"`,
      ),
    );
  }
  if (/\s/.test(value.trim()) || value !== value.trim()) {
    return fail(
      invalid(
        script,
        file,
        `maps "${key}" to "${value}", which has arguments or spaces`,
        `set "${key}" to one executable name without arguments (put options in the script itself)`,
      ),
    );
  }
  return value;
}

function fail(error: SkillgateError): never {
  throw error;
}

/** Resolves the executable that runs `scriptPath`; every error names the script, the config file and the fix. */
export async function resolveRunner(input: ResolveRunnerInput): Promise<RunnerResolution> {
  const script = basename(input.scriptPath);
  const extension = extname(script).toLowerCase();
  const skillFile = join(input.skillDir, "scripts", "script_runner.json");
  const packFile = join(input.skillsRoot, "script_runner.json");

  let name: string | null = null;
  let source = "built-in";
  const skillMapping = await readMapping(skillFile);
  if (!skillMapping.ok)
    throw invalid(script, skillFile, skillMapping.problem, `write {"${script}": "<runner>"}`);
  if (skillMapping.mapping && Object.hasOwn(skillMapping.mapping, script)) {
    name = checkRunnerValue(script, skillFile, script, skillMapping.mapping[script]);
    source = skillFile;
  }
  if (name === null) {
    const packMapping = await readMapping(packFile);
    if (!packMapping.ok) {
      throw invalid(script, packFile, packMapping.problem, `write {"${extension || ".ext"}": "<runner>"}`);
    }
    if (packMapping.mapping && extension && Object.hasOwn(packMapping.mapping, extension)) {
      name = checkRunnerValue(script, packFile, extension, packMapping.mapping[extension]);
      source = packFile;
    }
  }
  if (name === null) {
    const builtIn = BUILT_IN_RUNNERS[extension];
    if (builtIn === undefined) {
      throw new SkillgateError(
        "RUNNER_CONFIG_INVALID",
        `no runner for script '${script}': extension '${extension || "(none)"}' is mapped neither in ${skillFile} nor in ${packFile}, and built-ins cover only .py, .sh, .bash; fix: add {"${script}": "<runner>"} to ${skillFile}`,
        { script, skillFile, packFile },
      );
    }
    name = builtIn;
  }
  const found = findExecutable(name, input.path);
  if (found === null) {
    const where = source === "built-in" ? "the built-in runners" : source;
    throw new SkillgateError(
      "RUNNER_NOT_FOUND",
      `runner '${name}' for script '${script}' (from ${where}) was not found on PATH; fix: install '${name}' or map '${script}' to another runner in ${skillFile}`,
      { script, runner: name, source },
    );
  }
  // One synchronous realpath: an await of the thread pool costs more than the lookup (a few lstats) on a loaded host.
  return { runner: realpathSync(resolveShim(found, process.env, input.cwd ?? process.cwd())), source };
}
