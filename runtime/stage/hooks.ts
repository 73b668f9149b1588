// Skill hooks: a stage instance whose methods hooks.ts files may wrap, and the loader that applies each hook once.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { StageConfig } from "../config/schema.js";
import type { SkillRecord } from "../skills/types.js";

export const HOOKABLE_METHODS = ["getTasks", "describe", "onCheck"] as const;
export type HookableMethod = (typeof HOOKABLE_METHODS)[number];
// biome-ignore lint/suspicious/noExplicitAny: hooks wrap methods of different signatures
export type HookFunction = (original: (...args: any[]) => any, ...args: any[]) => unknown;

export interface CheckSummary {
  passed: boolean;
  message: string;
}

/** One stage as hooks see it. Hooks may shape guidance (tasks, description, check hints), never requirements. */
export class StageInstance {
  readonly hooksApplied = new Set<string>();
  /** Problems met while running hooked methods (reported once, then the unhooked result is used). */
  readonly runtimeWarnings: string[] = [];

  constructor(
    readonly index: number,
    readonly config: StageConfig,
    readonly skillList: string[],
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Task lines shown to the agent. */
  getTasks(): string[] {
    return [...this.config.task];
  }

  /** One-line description of the stage. */
  describe(): string {
    return this.config.desc;
  }

  /** Extra hint lines added to a Check result. */
  onCheck(_result: CheckSummary): string[] {
    return [];
  }

  /** Wraps `method` of this instance: later calls run `fn(original, ...args)`. */
  addHook(method: HookableMethod, fn: HookFunction): void {
    if (!HOOKABLE_METHODS.includes(method)) {
      throw new Error(`unknown stage method '${String(method)}' (hookable: ${HOOKABLE_METHODS.join(", ")})`);
    }
    const self = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    const original = self[method]!.bind(this);
    self[method] = (...args: unknown[]) => fn(original, ...args);
  }

  /** Tasks after hooks, falling back to the configured tasks if a hook misbehaves. */
  safeTasks(): string[] {
    return this.safely(
      "getTasks",
      () => this.getTasks(),
      isStringArray,
      () => [...this.config.task],
    );
  }

  safeDescribe(): string {
    return this.safely(
      "describe",
      () => this.describe(),
      (v): v is string => typeof v === "string",
      () => this.config.desc,
    );
  }

  safeOnCheck(result: CheckSummary): string[] {
    return this.safely(
      "onCheck",
      () => this.onCheck(result),
      isStringArray,
      () => [],
    );
  }

  private safely<T>(
    method: string,
    call: () => unknown,
    valid: (v: unknown) => v is T,
    fallback: () => T,
  ): T {
    try {
      const value = call();
      if (valid(value)) return value;
      this.warnOnce(
        `a hook of stage '${this.name}' made ${method}() return ${typeof value}; the unhooked result is used`,
      );
    } catch (error) {
      this.warnOnce(
        `a hook of stage '${this.name}' threw in ${method}(): ${(error as Error).message ?? String(error)}; the unhooked result is used`,
      );
    }
    return fallback();
  }

  private warnOnce(text: string): void {
    if (!this.runtimeWarnings.includes(text)) this.runtimeWarnings.push(text);
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

export type HookImporter = (file: string) => Promise<Record<string, unknown>>;

const moduleCache = new Map<string, Promise<Record<string, unknown>>>();

/** Loads hooks.ts with tsx once per process (per file version), so re-entering a stage never re-runs module code. */
export const importHookFile: HookImporter = async (file) => {
  const info = await stat(file);
  const key = `${file}:${info.mtimeMs}:${info.size}`;
  let loaded = moduleCache.get(key);
  if (!loaded) {
    loaded = import("tsx/esm/api").then(
      ({ tsImport }) =>
        tsImport(pathToFileURL(file).href, import.meta.url) as Promise<Record<string, unknown>>,
    );
    moduleCache.set(key, loaded);
    loaded.catch(() => moduleCache.delete(key));
  }
  return loaded;
};

export interface HookLoadOptions {
  importer?: HookImporter;
  /** Why this hooks.ts may not load (null: trusted). Hooks run in the server process: only trusted ones load. */
  trust?: (skill: SkillRecord, file: string) => Promise<string | null>;
  /** Integrity check of hooks.ts against the init manifest; a file that fails is not loaded. */
  verify?: (file: string) => Promise<{ ok: true } | { ok: false; message: string }>;
  /** setupStage must settle within this time (default 10 s). */
  timeoutMs?: number;
}

const SETUP_TIMEOUT_MS = 10_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`setupStage did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface HookReport {
  /** Skill ids whose setupStage ran and whose hooks were applied now. */
  applied: string[];
  /** What failed, which skill, and that it was skipped. */
  warnings: string[];
}

/**
 * Runs `setupStage(stage)` of each skill's hooks.ts (in the given order) at most once per stage instance. A hook
 * that throws or names an unknown method is skipped whole; the others still load.
 */
export async function applySkillHooks(
  stage: StageInstance,
  skills: SkillRecord[],
  options: HookLoadOptions = {},
): Promise<HookReport> {
  const importer = options.importer ?? importHookFile;
  const timeoutMs = options.timeoutMs ?? SETUP_TIMEOUT_MS;
  const report: HookReport = { applied: [], warnings: [] };
  for (const skill of skills) {
    if (stage.hooksApplied.has(skill.id) || !skill.hasHooks) continue;
    stage.hooksApplied.add(skill.id);
    const file = join(skill.dir, "hooks.ts");
    const where = `hooks.ts of skill '${skill.id}' (${file})`;
    if (options.verify) {
      const verified = await options.verify(file);
      if (!verified.ok) {
        report.warnings.push(`${where} was not loaded: ${verified.message}`);
        continue;
      }
    }
    if (options.trust) {
      const problem = await options.trust(skill, file);
      if (problem !== null) {
        report.warnings.push(`${where} was not loaded: ${problem}`);
        continue;
      }
    }
    let setup: unknown;
    try {
      const mod = await importer(file);
      setup = mod.setupStage ?? (mod.default as Record<string, unknown> | undefined)?.setupStage;
    } catch (error) {
      report.warnings.push(`${where} failed to load: ${firstLine(error)}; skipped, other hooks still apply.`);
      continue;
    }
    if (typeof setup !== "function") {
      report.warnings.push(`${where} does not export setupStage(stage); skipped.`);
      continue;
    }
    const pending: Array<[HookableMethod, HookFunction]> = [];
    const staging = Object.create(stage) as StageInstance;
    staging.addHook = (method: HookableMethod, fn: HookFunction) => {
      if (!HOOKABLE_METHODS.includes(method)) {
        throw new Error(
          `addHook('${String(method)}') names an unknown stage method (hookable: ${HOOKABLE_METHODS.join(", ")})`,
        );
      }
      if (typeof fn !== "function") throw new Error(`addHook('${method}') needs a function`);
      pending.push([method, fn]);
    };
    try {
      await withTimeout(Promise.resolve((setup as (s: StageInstance) => unknown)(staging)), timeoutMs);
    } catch (error) {
      report.warnings.push(
        `${where}: setupStage threw: ${firstLine(error)}; its hooks were skipped, other hooks still apply.`,
      );
      continue;
    }
    for (const [method, fn] of pending) stage.addHook(method, fn);
    report.applied.push(skill.id);
  }
  return report;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}

/**
 * The trust rule of hooks.ts (it runs in the server process, with skillgate's rights): a hooks.ts identical to
 * the bundled pack's file of the same skill loads; any other only when `trusted` (skill.trusted_hooks) maps the
 * skill id to the sha256 of exactly this file.
 */
export async function hookTrustProblem(
  skill: Pick<SkillRecord, "id">,
  file: string,
  trusted: Record<string, string>,
  bundledSkillsDir: string | null,
): Promise<string | null> {
  const digest = createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
  if (bundledSkillsDir !== null) {
    try {
      const bundled = await readFile(join(bundledSkillsDir, skill.id, "hooks.ts"));
      if (createHash("sha256").update(bundled).digest("hex") === digest) return null;
    } catch {
      // not a bundled skill
    }
  }
  if (trusted[skill.id] === digest) return null;
  const configured = trusted[skill.id];
  return `${configured === undefined ? "it is not trusted" : `its sha256 ${digest} is not the trusted ${configured}`}; hooks run in the server process with skillgate's rights; fix: review it, then set skill.trusted_hooks: {"${skill.id}": "${digest}"} in the config`;
}
