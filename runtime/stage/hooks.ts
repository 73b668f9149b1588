// Loads skills' hooks.ts from verified bytes: read once, checked by digest, imported from a private copy of exactly those bytes.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { SkillRecord } from "../skills/index.js";
import { readWorkspaceFile } from "../workspace/index.js";
import {
  HOOKABLE_METHODS,
  type HookableMethod,
  type HookFunction,
  type StageInstance,
} from "./stage-instance.js";

export {
  type CheckSummary,
  HOOKABLE_METHODS,
  type HookableMethod,
  type HookFunction,
  StageInstance,
} from "./stage-instance.js";

/** Imports hooks.ts from `source`, the bytes that were verified (never the path again: it may have been swapped). */
export type HookImporter = (file: string, source: Buffer) => Promise<Record<string, unknown>>;

/** Largest hooks.ts read. */
export const HOOK_MAX_BYTES = 1024 * 1024;

const moduleCache = new Map<string, Promise<Record<string, unknown>>>();
let privateDir: string | null = null;

/** A 0700 folder of this process (mkdtemp), removed at exit: nobody else can put a file between our write and import. */
function hookDir(): string {
  if (privateDir === null) {
    const dir = mkdtempSync(join(tmpdir(), "skillgate-hooks-"));
    privateDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateDir;
}

/**
 * Loads hooks.ts with tsx once per process per content digest, so re-entering a stage never re-runs module code.
 * The verified bytes are written to a fresh file in our private folder and that file is imported, then removed.
 */
export const importHookFile: HookImporter = async (_file, source) => {
  const digest = createHash("sha256").update(source).digest("hex");
  let loaded = moduleCache.get(digest);
  if (!loaded) {
    loaded = (async () => {
      const copy = join(hookDir(), `${digest.slice(0, 16)}-${randomBytes(6).toString("hex")}.ts`);
      await writeFile(copy, source, { flag: "wx", mode: 0o600 });
      try {
        const { tsImport } = await import("tsx/esm/api");
        return (await tsImport(pathToFileURL(copy).href, import.meta.url)) as Record<string, unknown>;
      } finally {
        await unlink(copy).catch(() => undefined);
      }
    })();
    moduleCache.set(digest, loaded);
    loaded.catch(() => moduleCache.delete(digest));
  }
  return loaded;
};

export interface HookLoadOptions {
  importer?: HookImporter;
  /** Why this hooks.ts may not load (null: trusted). Hooks run in the server process: only trusted ones load. */
  trust?: (skill: SkillRecord, file: string, sha256: string) => Promise<string | null>;
  /** Integrity check of the bytes read (their sha256) against the init manifest; a file that fails is not loaded. */
  verify?: (file: string, sha256: string) => Promise<{ ok: true } | { ok: false; message: string }>;
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
    let source: Buffer;
    try {
      source = (await readWorkspaceFile(skill.dir, "hooks.ts", { maxBytes: HOOK_MAX_BYTES })).bytes;
    } catch (error) {
      report.warnings.push(`${where} was not loaded: ${firstLine(error)}`);
      continue;
    }
    const sha256 = createHash("sha256").update(source).digest("hex");
    if (options.verify) {
      const verified = await options.verify(file, sha256);
      if (!verified.ok) {
        report.warnings.push(`${where} was not loaded: ${verified.message}`);
        continue;
      }
    }
    if (options.trust) {
      const problem = await options.trust(skill, file, sha256);
      if (problem !== null) {
        report.warnings.push(`${where} was not loaded: ${problem}`);
        continue;
      }
    }
    let setup: unknown;
    try {
      const mod = await importer(file, source);
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
  digest: string,
  trusted: Record<string, string>,
  bundledSkillsDir: string | null,
): Promise<string | null> {
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
