// Resolves the runner executable of a skill script: skill mapping → pack mapping by extension → built-ins.
import { execFileSync } from "node:child_process";
import { accessSync, constants, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, delimiter, dirname, extname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SkillgateError } from "../errors.js";

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
}

const BUILT_IN_RUNNERS: Record<string, string> = { ".py": "python3", ".sh": "bash", ".bash": "bash" };

/** Runners skillgate ships as npm dependencies: found in its own node_modules/.bin when not on PATH. */
const BUNDLED_RUNNERS = new Set(["tsx", "bun", "bunx"]);

/** skillgate's own node_modules/.bin (this file lives in runtime/exec/ or dist/runtime/exec/). */
export function ownBinDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "node_modules", ".bin");
    if (isExecutable(join(candidate, "tsx"))) return candidate;
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "node_modules", ".bin");
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
  const dirs = searchPath.split(delimiter).filter((dir) => dir.length > 0);
  if (BUNDLED_RUNNERS.has(name)) dirs.push(ownBinDir());
  for (const dir of dirs) {
    const candidate = resolve(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * A pyenv shim is a bash script that needs pyenv, its root and its version files at run time: none of
 * that is visible in the sandbox, so the shim is replaced by the interpreter it would have started.
 */
export function resolveShim(executable: string): string {
  const key = `${executable}\0${process.cwd()}`;
  const known = shimCache.get(key);
  if (known !== undefined) return known;
  const real = resolveShimUncached(executable);
  shimCache.set(key, real);
  return real;
}

/** pyenv takes ~0.2 s per lookup; the answer depends on the executable and the folder's .python-version. */
const shimCache = new Map<string, string>();

function resolveShimUncached(executable: string): string {
  const dir = dirname(executable);
  if (basename(dir) !== "shims") return executable;
  const pyenv = join(dirname(dir), "libexec", "pyenv");
  if (!isExecutable(pyenv)) return executable;
  try {
    const real = execFileSync(pyenv, ["which", basename(executable)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, PYENV_ROOT: dirname(dir) },
      timeout: 10_000,
    }).trim();
    return real.length > 0 && isExecutable(real) ? real : executable;
  } catch {
    return executable;
  }
}

type MappingFile = { ok: true; mapping: Record<string, unknown> | null } | { ok: false; problem: string };

function readMapping(file: string): MappingFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
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
  const skillMapping = readMapping(skillFile);
  if (!skillMapping.ok)
    throw invalid(script, skillFile, skillMapping.problem, `write {"${script}": "<runner>"}`);
  if (skillMapping.mapping && Object.hasOwn(skillMapping.mapping, script)) {
    name = checkRunnerValue(script, skillFile, script, skillMapping.mapping[script]);
    source = skillFile;
  }
  if (name === null) {
    const packMapping = readMapping(packFile);
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
  return { runner: realpathSync(resolveShim(found)), source };
}
