// Turns the exec config (limits, operator grants) and a skill's cache declarations into the limits, network, env and caches of its runs.
import { join } from "node:path";
import type { ExecConfig } from "../config/index.js";
import { skillgateHome } from "../config/index.js";
import type { SkillRecord } from "../skills/index.js";
import { envNameProblem } from "./env.js";
import type { RunLimits, SandboxLevel, WorkspaceBudget } from "./types.js";

export interface RunPlan {
  limits: RunLimits;
  /** exec.workspace_files / exec.workspace_mb: what one run may add to its writable area. */
  workspaceBudget: WorkspaceBudget;
  sandboxLevel: SandboxLevel;
  network: boolean;
  /** Host variable names the operator granted (exec.grants.<id>.env) that passed the allow-list. */
  envNames: string[];
  /** Cache folders bound writable and kept between runs. */
  persistentPaths: string[];
  /** Values to add to the run env: declared host variables present in the host env, then cache settings. */
  extraEnv: Record<string, string>;
  /** Declarations that were refused or unknown, one sentence each. */
  warnings: string[];
}

const MIB = 1024 * 1024;

/** Cache name → variables pointing the runner's caches (and managed interpreters) into `<dir>`. */
const CACHE_ENV: Record<string, (dir: string) => Record<string, string>> = {
  uv: (dir) => ({
    UV_CACHE_DIR: join(dir, "cache"),
    UV_PYTHON_INSTALL_DIR: join(dir, "python"),
    UV_PYTHON_BIN_DIR: join(dir, "bin"),
    UV_TOOL_DIR: join(dir, "tools"),
    UV_TOOL_BIN_DIR: join(dir, "bin"),
  }),
  bun: (dir) => ({
    BUN_INSTALL: dir,
    BUN_INSTALL_CACHE_DIR: join(dir, "install", "cache"),
    BUN_RUNTIME_TRANSPILER_CACHE_PATH: join(dir, "transpiler"),
  }),
};

/** Names the cache declarations set; runScript lets them through, skills cannot declare them. */
export const CACHE_ENV_NAMES: ReadonlySet<string> = new Set(
  Object.values(CACHE_ENV).flatMap((make) => Object.keys(make("/"))),
);

function listDeclaration(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** The run plan of `skill`: per-skill overrides capped by max_timeout_seconds, plus its metadata declarations. */
export function runPlanFor(
  exec: ExecConfig,
  skill: Pick<SkillRecord, "id" | "metadata">,
  hostEnv: NodeJS.ProcessEnv = process.env,
): RunPlan {
  const override = exec.skill_overrides[skill.id] ?? {};
  const timeoutSeconds = Math.min(override.timeout_seconds ?? exec.timeout_seconds, exec.max_timeout_seconds);
  const limits: RunLimits = {
    timeoutMs: Math.round(timeoutSeconds * 1000),
    memoryBytes: (override.memory_mb ?? exec.memory_mb) * MIB,
    outputBytes: override.output_bytes ?? exec.output_bytes,
    maxProcesses: exec.max_processes,
    maxFileSizeBytes: exec.max_file_size_mb * MIB,
    maxOpenFiles: exec.max_open_files,
  };
  const warnings: string[] = [];
  const metadata = skill.metadata ?? {};

  // Capabilities come from the operator (exec.grants.<id>); the skill's metadata only says what it wants.
  const grant = exec.grants?.[skill.id];
  const network = grant?.network === true;
  const networkValue = metadata["skillgate-network"];
  if (networkValue?.trim().toLowerCase() === "true" && !network) {
    warnings.push(
      `skill '${skill.id}' asks for the network (metadata skillgate-network) but the operator has not granted it, so its runs have none; fix: set exec.grants.${skill.id}.network: true in the config if you trust it`,
    );
  }

  const extraEnv: Record<string, string> = {};
  const envNames: string[] = [];
  const granted = new Set(grant?.env ?? []);
  for (const name of listDeclaration(metadata["skillgate-env"])) {
    if (!granted.has(name)) {
      warnings.push(
        `skill '${skill.id}' asks for the host variable ${name} (metadata skillgate-env) but the operator has not granted it, so it is not passed; fix: add ${name} to exec.grants.${skill.id}.env in the config if you trust it`,
      );
    }
  }
  for (const name of granted) {
    const problem =
      envNameProblem(name) ?? (CACHE_ENV_NAMES.has(name) ? "is set by a cache declaration" : null);
    if (problem !== null) {
      warnings.push(`exec.grants.${skill.id}.env names ${name}, which ${problem}; it is not passed`);
      continue;
    }
    envNames.push(name);
    const value = hostEnv[name];
    if (value !== undefined) extraEnv[name] = value;
  }

  const persistentPaths: string[] = [];
  for (const cache of listDeclaration(metadata["skillgate-cache"])) {
    const make = CACHE_ENV[cache];
    if (make === undefined) {
      warnings.push(
        `skill '${skill.id}': metadata skillgate-cache names '${cache}'; known caches are ${Object.keys(CACHE_ENV).join(", ")}`,
      );
      continue;
    }
    const dir = join(skillgateHome(hostEnv), "cache", cache);
    persistentPaths.push(dir);
    Object.assign(extraEnv, make(dir));
  }

  return {
    limits,
    workspaceBudget: { files: exec.workspace_files, bytes: exec.workspace_mb * MIB },
    sandboxLevel: override.sandbox_level ?? exec.sandbox_level,
    network,
    envNames,
    persistentPaths,
    extraEnv,
    warnings,
  };
}
