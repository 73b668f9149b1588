// RunSkillScript's per-command records: the run request from config, the JSON record of a result and its signed receipt.
import { createHash } from "node:crypto";
import { skillgateHome } from "../../config/index.js";
import type { ErrorCode } from "../../errors.js";
import type { RunRequest, RunResult } from "../../exec/index.js";
import {
  privateTmpDir,
  pythonHookCacheDir,
  runPlanFor,
  tsCacheDir,
  withPythonHook,
  withTsFastPath,
} from "../../exec/index.js";
import { workspaceRelative } from "../results.js";
import type { Session } from "../types.js";
import type { PreparedCommand } from "./commands.js";

export interface CommandRecord {
  index: number;
  skill_id: string;
  script: string;
  argv: string[];
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  output: string;
  status: RunResult["status"];
  /** Every status but ok: the outcome's stable code and its fix (message is the rendered line). */
  code?: ErrorCode;
  fix?: string;
  sandboxed: boolean;
  truncated: boolean;
  /** SKILLGATE_RUN_ID of the run (every process of the run carries it). */
  run_id?: string;
  warnings: string[];
  message?: string;
}

export async function requestFor(
  session: Session,
  command: PreparedCommand,
  hostEnv: NodeJS.ProcessEnv,
): Promise<{ request: RunRequest; warnings: string[]; fastPath: boolean }> {
  const plan = runPlanFor(session.config.exec, command.skill, hostEnv);
  const env: Record<string, string> = {
    DUT: session.runtime.DUT,
    OUT: session.runtime.OUT,
    ...plan.extraEnv,
  };
  const request: RunRequest = {
    runner: command.runner,
    scriptPath: command.scriptPath,
    args: command.args,
    cwd: session.paths.root,
    skillDir: command.skill.dir,
    writablePaths: [session.paths.root],
    env,
    network: plan.network,
    persistentPaths: plan.persistentPaths,
    // Host-visible so a helper's "temp file kept: <path>" still exists after the run; private per user and workspace.
    tmpDir: await privateTmpDir(session.paths.root),
    sandboxUid: session.config.exec.sandbox_uid,
    limits: plan.limits,
    workspaceBudget: plan.workspaceBudget,
    sandboxLevel: plan.sandboxLevel,
    allowUnsandboxed: session.config.exec.allow_unsandboxed,
    // The scan (zod rule schemas, rules.yaml) loads only for level 3, the one level that runs it.
    scan: async (paths) => (await import("../../scan/index.js")).scanFiles(paths),
    // Level 3 also scans the skill's hooks.ts: hooks are code of the same author.
    ...(plan.sandboxLevel === 3
      ? {
          scanPaths: await (await import("../../scan/index.js")).runScanPaths(
            command.scriptPath,
            command.skill.dir,
          ),
        }
      : {}),
    scanApproved: session.config.exec.approve_scan_findings.includes(command.skill.id),
  };
  const home = skillgateHome(hostEnv);
  const fast = await withTsFastPath(request, tsCacheDir(home), hostEnv);
  return {
    request: await withPythonHook(fast.request, pythonHookCacheDir(home), hostEnv),
    warnings: plan.warnings,
    fastPath: fast.fastPath,
  };
}

export function recordOf(command: PreparedCommand, result: RunResult, planWarnings: string[]): CommandRecord {
  return {
    index: command.index,
    skill_id: command.skill.id,
    script: command.script,
    argv: result.argv,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    duration_ms: result.durationMs,
    output: result.output,
    status: result.status,
    sandboxed: result.sandboxed,
    truncated: result.truncated,
    ...(result.runId ? { run_id: result.runId } : {}),
    warnings: [...planWarnings, ...result.warnings],
    ...(result.outcome.status === "ok"
      ? {}
      : { code: result.outcome.code, message: result.message, fix: result.outcome.fix }),
  };
}

export function argvText(session: Session, argv: string[]): string {
  return argv
    .map((part) => (part.startsWith(session.paths.root) ? workspaceRelative(session, part) : part))
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`))
    .join(" ");
}

/** The use evidence of a call: its stage skills, and the commands that ran. */
export interface UseEvidence {
  skillIds: string[];
  detail: Record<string, unknown>;
}

/** The use evidence a call whose commands all succeeded offers: every skill it ran (the ledger keeps the stage's). */
export function callUseOf(prepared: PreparedCommand[], records: CommandRecord[]): UseEvidence {
  return {
    skillIds: [...new Set(prepared.map((command) => command.skill.id))],
    detail: {
      commands: records.map((record) => ({
        skill_id: record.skill_id,
        script: record.script,
        argv: record.argv,
      })),
    },
  };
}

/** The current stage's skills among `use` (for an engine that keeps no receipts and records use on its own). */
export async function stageUseOf(session: Session, use: UseEvidence): Promise<UseEvidence> {
  const stage = await session.engine.current();
  const stageIds = new Set(stage?.skillList ?? []);
  return { skillIds: use.skillIds.filter((id) => stageIds.has(id)), detail: use.detail };
}

/**
 * A signed run receipt: what ran (script hash as bound in the ledger), how it ended, and hashes of its output.
 * Given `use`, the call's use evidence of the current stage's skills goes into the same ledger append; resolves with
 * those skills. Null when the engine keeps no receipts (then nothing was recorded, `use` neither).
 */
export async function recordReceipt(
  session: Session,
  command: PreparedCommand,
  result: RunResult,
  use?: UseEvidence,
): Promise<string[] | null> {
  if (!session.engine.recordRun) return null;
  const trusted = session.engine.trustedManifest ? await session.engine.trustedManifest() : null;
  const rel = `${command.skill.id}/scripts/${command.script}`;
  const receipt = {
    skill_id: command.skill.id,
    script: command.script,
    script_sha256: trusted?.[rel] ?? null,
    argv: result.argv,
    status: result.status,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    duration_ms: result.durationMs,
    stdout_sha256: createHash("sha256").update(result.stdout).digest("hex"),
    stderr_sha256: createHash("sha256").update(result.stderr).digest("hex"),
    output_truncated: result.truncated,
    sandboxed: result.sandboxed,
  };
  return session.engine.recordRun(receipt, use);
}
