// Opens a workspace for the tools: layered config, init when needed, runtime config, live skill catalog, stage engine.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SkillgateConfig } from "../config/index.js";
import { loadConfig, skillFlagsFromArgv, skillgateHome } from "../config/index.js";
import { BUILD_ID, workspacePaths } from "../contracts/index.js";
import type { CatalogIndexStore, CatalogSnapshot } from "../skills/index.js";
import { createCatalog, fenceMark, scanSkillRoot, scanSkillRootIndexed } from "../skills/index.js";
import { createStageEngine, validateWorkflow } from "../stage/index.js";
import {
  configMemoIn,
  type InitProgress,
  type InitReport,
  initWorkspace,
  readRuntimeConfig,
  writeFileAtomic,
} from "../workspace/index.js";
import { engineOnUse } from "./engine-on-use.js";
import type { Session } from "./types.js";

export interface SkillFlags {
  useSkill?: boolean;
  extraSkillPaths?: string[];
}

export interface OpenSessionOptions {
  /** Workspace folder (created by init when it does not exist). */
  workspace: string;
  /** `--config FILE` layer. */
  configFile?: string;
  /** Raw skill flags as typed (`--use-skill`, `--no-use-skill`, `--extra-skill-path P`); last one wins. */
  argvFlags?: string[];
  /** Already parsed skill flags; merged over argvFlags. */
  flags?: SkillFlags;
  /** `skillgate init` just ran init itself: record a changed workflow or pack in the ledger instead of refusing it. */
  recordInit?: boolean;
  /** Re-run init (copy the pack, refresh hashes) even when the workspace is already initialised. */
  init?: boolean;
  /** Progress of a long init copy (the CLI prints it on stderr). */
  onProgress?: (progress: InitProgress) => void;
  env?: NodeJS.ProcessEnv;
  /** Forget the last Check when the engine starts (UCAgent semantics after a restart); the MCP server sets it. */
  resetCheckOnStart?: boolean;
  /** false leaves the file tools out (`serve --no-file-tools`); unset follows config `file_tools`. */
  fileTools?: boolean;
  /** Layer <ws>/.ucagent/setting.yaml (default true); off for an authority, since the agent can write that file. */
  workspaceLayer?: boolean;
  /**
   * "live" (default): a watched catalog that follows skill edits (the MCP server). "static": one scan on first
   * use and no watcher thread, for a process that serves one call and exits (`skillgate call`, `status`).
   */
  catalog?: "live" | "static";
  /** `--dut PATH` (relative to the current folder): overrides config DUT and re-runs init to record it. */
  dut?: string;
  /**
   * Re-copy the pack when skills are enabled and the workspace copy lost the skill folder or a stage skill (as
   * UCAgent copies at every start); `serve` sets it. `call` does not: its tools answer with the fix instead.
   */
  restoreSkills?: boolean;
  /**
   * How run receipts reach the disk: "deferred" (default) answers before their fsync and flushes them in the
   * background; "inline" syncs them in the call's own commit, for a process that exits after one call (`call`).
   */
  durability?: "deferred" | "inline";
  /**
   * Start the stage engine (the ledger's load and checks) on first use instead of before returning; the session's
   * `engineStarted()` starts it and throws what its start threw. For `call RunSkillScript`: the engine starts while
   * the script's sandbox is built, and the script is released only after it started (tools/run-skill-script.ts).
   */
  engineOnUse?: boolean;
}

export interface OpenedSession extends Session {
  /** Config files that were layered, in order. */
  configSources: string[];
  /** True when this call ran init. */
  initialised: boolean;
  /** The init report when this call ran init. */
  initReport?: InitReport;
}

/** Builds the Session every tool handler receives; throws SkillgateError on bad config or flags. */
export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const paths = workspacePaths(options.workspace);
  const parsed = skillFlagsFromArgv(options.argvFlags ?? []);
  const flags = {
    useSkill: options.flags?.useSkill ?? parsed.useSkill,
    extraSkillPaths: [...parsed.extraSkillPaths, ...(options.flags?.extraSkillPaths ?? [])],
  };
  const { config, sources } = await loadConfig({
    workspace: paths.root,
    configFile: options.configFile,
    flags,
    env: options.env,
    workspaceLayer: options.workspaceLayer,
    // The built CLI reuses the config it resolved from the same files (one-shot calls start without YAML or zod).
    ...(BUILD_ID ? { memo: configMemoIn(skillgateHome(options.env), BUILD_ID) } : {}),
  });
  if (options.dut !== undefined) config.DUT = resolve(options.dut);
  const needsInit =
    options.init === true ||
    options.dut !== undefined ||
    !existsSync(paths.runtimeConfig) ||
    (options.restoreSkills === true && config.skill.use_skill && skillCopyDamaged(paths.skillsDir, config));
  let initReport: InitReport | undefined;
  if (needsInit) {
    initReport = await initWorkspace({ workspace: paths.root, config, onProgress: options.onProgress });
  }
  const runtime = await readRuntimeConfig(paths);
  const skillsEnabled = config.skill.use_skill;
  const catalog =
    options.catalog === "static"
      ? staticCatalog(paths.skillsDir, skillsEnabled, skillgateHome(options.env))
      : liveCatalog(paths.skillsDir, skillsEnabled);
  const start = () =>
    createStageEngine({
      paths,
      config,
      runtime,
      skillsEnabled,
      catalog,
      home: skillgateHome(options.env),
      resetCheckOnStart: options.resetCheckOnStart ?? false,
      initialised: needsInit || options.recordInit === true,
      useSkillFromFlag: flags.useSkill !== undefined,
      ...(options.durability ? { ledgerDurability: options.durability } : {}),
    });
  const onUse = options.engineOnUse ? engineOnUse(start) : null;
  const engine = onUse ? { engine: onUse.engine, engineStarted: onUse.started } : { engine: await start() };
  return {
    paths,
    config: config as SkillgateConfig,
    runtime,
    skillsEnabled,
    catalog,
    ...(options.catalog === "static" ? {} : { catalogMark: fenceMark }),
    ...engine,
    ...(options.fileTools === undefined ? {} : { fileTools: options.fileTools }),
    configSources: sources,
    initialised: needsInit,
    ...(initReport ? { initReport } : {}),
  };
}

/** The skill folder is gone, or a stage skill is missing from it or no longer parses. */
function skillCopyDamaged(skillsDir: string, config: SkillgateConfig): boolean {
  if (!existsSync(skillsDir)) return true;
  const damaged = new Set(["SKILL_NOT_FOUND", "SKILL_INVALID"]);
  return validateWorkflow(config, scanSkillRoot(skillsDir), true).some((d) => damaged.has(d.code));
}

/** A catalog getter that notices the skill folder disappearing or coming back. */
function liveCatalog(skillsDir: string, skillsEnabled: boolean): (since?: number) => CatalogSnapshot | null {
  let catalog: ReturnType<typeof createCatalog> | null = null;
  return (since) => {
    if (!skillsEnabled) return null;
    if (!existsSync(skillsDir)) {
      catalog = null;
      return null;
    }
    catalog ??= createCatalog(skillsDir);
    return catalog.snapshot(since);
  };
}

/**
 * One scan, taken on first use and kept: what a one-shot process sees of the skill folder. It is served from
 * the catalog index in `$SKILLGATE_HOME/cache/catalog/` when nothing it rests on changed (skills/catalog-index.ts).
 */
function staticCatalog(
  skillsDir: string,
  skillsEnabled: boolean,
  home: string,
): () => CatalogSnapshot | null {
  let snapshot: CatalogSnapshot | null | undefined;
  return () => {
    if (!skillsEnabled) return null;
    snapshot ??= existsSync(skillsDir)
      ? scanSkillRootIndexed(skillsDir, catalogIndexStore(home, skillsDir)).snapshot
      : null;
    return snapshot;
  };
}

function catalogIndexStore(home: string, skillsDir: string): CatalogIndexStore {
  const folder = join(home, "cache", "catalog");
  const name = createHash("sha256").update(resolve(skillsDir)).digest("hex").slice(0, 32);
  return {
    file: join(folder, `${name}.index`),
    write: (file, text) => {
      // A cache: when it cannot be written the next call scans again, which is the same answer, only slower.
      void mkdir(folder, { recursive: true, mode: 0o700 })
        .then(() => writeFileAtomic(file, text, { mode: 0o600 }))
        .catch(() => undefined);
    },
  };
}
