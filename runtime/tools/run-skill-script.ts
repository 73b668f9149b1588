// RunSkillScript: validates every [skill_id, script, args] command first, then runs them in order (no shell) and records use.
import { createHash } from "node:crypto";
import { z } from "zod";
import { skillgateHome } from "../config/index.js";
import type { ToolResult } from "../contracts/index.js";
import { type ErrorCode, isSkillgateError } from "../errors.js";
import type { RunRequest, RunResult } from "../exec/index.js";
import {
  checkScriptPath,
  type FailedOutcome,
  failureHeading,
  privateTmpDir,
  resolveRunner,
  runPlanFor,
  runQueueFor,
  runScript,
  scriptNameProblem,
  splitArgs,
  tsCacheDir,
  withTsFastPath,
} from "../exec/index.js";
import { runScanPaths, scanFiles } from "../scan/index.js";
import type { SkillRecord } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { verifyCopiedFile } from "../workspace/index.js";
import {
  errorResult,
  okResult,
  resultFromError,
  skillRootMissingResult,
  skillsDisabledResult,
  workspaceRelative,
} from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

const COMMANDS_JSON_SCHEMA = {
  description:
    "Non-empty list of commands, each [skill_id, script_filename, args]: skill_id is the Skill ID shown by ListSkill " +
    "(e.g. 'review/static-bug-analysis'), script_filename a file listed under its Script Path (bare name, e.g. " +
    "'record_bug.ts'), args one string split like a POSIX shell (Python shlex; no shell runs, so $VAR, | and > are " +
    'passed literally; use "" for none). A JSON string of that list is accepted too. All commands are validated ' +
    "before any runs; they run in order and stop at the first failure.",
  anyOf: [
    {
      type: "array",
      minItems: 1,
      items: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
    },
    { type: "string" },
  ],
};

export const runSkillScriptInput = z
  .object({
    commands: z.unknown().meta(COMMANDS_JSON_SCHEMA),
  })
  .strict();

export type RunSkillScriptInput = z.infer<typeof runSkillScriptInput>;

export interface PreparedCommand {
  index: number;
  skill: SkillRecord;
  script: string;
  scriptPath: string;
  args: string[];
  runner: string;
  runnerSource: string;
}

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

type Invalid = { ok: false; result: ToolResult };

/** Linux MAX_ARG_STRLEN; and a total well under ARG_MAX so environment and paths still fit. */
const MAX_ARG_BYTES = 128 * 1024;
const MAX_ARGS_BYTES = 1024 * 1024;

const FORMAT_HINT =
  'Expected a non-empty list of [skill_id, script_filename, args], e.g. {"commands": [["review/static-bug-analysis", ' +
  '"list_bugs.ts", ""]]}.';

function invalid(index: number, message: string, code: ErrorCode = "INVALID_ARGS"): Invalid {
  return {
    ok: false,
    result: errorResult(
      code,
      `Command ${index} invalid: ${message}\nNo command was run (every command is validated before any runs).`,
      { invalid_command: index },
    ),
  };
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/** Accepts the array itself or a JSON string of it. */
export function parseCommandList(raw: unknown): { ok: true; commands: unknown[] } | Invalid {
  let value = raw;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch (error) {
      return {
        ok: false,
        result: errorResult(
          "INVALID_ARGS",
          `RunSkillScript: 'commands' is a string but not valid JSON (${(error as Error).message}). ${FORMAT_HINT}`,
        ),
      };
    }
  }
  if (value === undefined) {
    return {
      ok: false,
      result: errorResult("INVALID_ARGS", `RunSkillScript: 'commands' is required. ${FORMAT_HINT}`),
    };
  }
  if (!Array.isArray(value) || value.length === 0) {
    return {
      ok: false,
      result: errorResult(
        "INVALID_ARGS",
        `RunSkillScript: 'commands' must be a non-empty list, got ${show(value)}. ${FORMAT_HINT}`,
      ),
    };
  }
  return { ok: true, commands: value };
}

/** Validates one command; never runs anything. */
export async function prepareCommand(
  session: Session,
  skills: SkillRecord[],
  raw: unknown,
  index: number,
): Promise<{ ok: true; command: PreparedCommand } | Invalid> {
  if (!Array.isArray(raw) || raw.length !== 3 || !raw.every((part) => typeof part === "string")) {
    return invalid(index, `expected [skill_id, script_filename, args] (three strings), got ${show(raw)}.`);
  }
  const [rawId, script, argText] = raw as [string, string, string];
  if (rawId.trim() === "") return invalid(index, "skill_id is empty; use a Skill ID shown by ListSkill.");
  if (script.trim() === "")
    return invalid(index, `script_filename is empty; use a file listed under the skill's Script Path.`);
  const id = normaliseSkillId(rawId);
  const skill = id === null ? undefined : skills.find((candidate) => candidate.id === id);
  if (!skill) {
    const known = skills.map((candidate) => candidate.id).join(", ");
    return invalid(
      index,
      `skill '${rawId}' not found in ${workspaceRelative(session, session.paths.skillsDir)}; call ListSkill and use ` +
        `a Skill ID it shows (available: ${known || "none"}).`,
      "SKILL_NOT_FOUND",
    );
  }
  // A bare name that is not one of the skill's scripts: say which ones exist (before any host path is involved).
  if (scriptNameProblem(script) === null && !skill.scripts.includes(script)) {
    return invalid(
      index,
      `script '${script}' is not a script of skill '${skill.id}'; its scripts are: ${skill.scripts.join(", ") || "none (a text method: apply it by hand)"}.`,
      "SCRIPT_NOT_FOUND",
    );
  }
  let scriptPath: string;
  try {
    scriptPath = await checkScriptPath(skill.dir, script);
  } catch (error) {
    if (isSkillgateError(error)) return invalid(index, error.message, error.code);
    throw error;
  }
  if (!skill.scripts.includes(script)) {
    return invalid(
      index,
      `script '${script}' is not a script of skill '${skill.id}'; its scripts are: ${skill.scripts.join(", ") || "none"}.`,
      "SCRIPT_NOT_FOUND",
    );
  }
  let args: string[];
  try {
    args = splitArgs(argText);
  } catch (error) {
    if (isSkillgateError(error)) return invalid(index, error.message, error.code);
    throw error;
  }
  const longest = Math.max(0, ...args.map((arg) => Buffer.byteLength(arg)));
  const total = args.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
  if (longest > MAX_ARG_BYTES || total > MAX_ARGS_BYTES) {
    return invalid(
      index,
      `its arguments are ${total} bytes (longest ${longest}); the kernel refuses an argument over ${MAX_ARG_BYTES} bytes and an argument list near 2 MiB (E2BIG), and skillgate takes at most ${MAX_ARGS_BYTES} bytes; fix: write large input to a file in the workspace and pass its path.`,
    );
  }
  const trusted = session.engine.trustedManifest ? await session.engine.trustedManifest() : null;
  const verified = await verifyCopiedFile(session.paths, scriptPath, trusted);
  if (!verified.ok) return invalid(index, verified.message, "SCRIPT_MODIFIED");
  try {
    const { runner, source } = await resolveRunner({
      scriptPath,
      skillDir: skill.dir,
      skillsRoot: session.paths.skillsDir,
    });
    return { ok: true, command: { index, skill, script, scriptPath, args, runner, runnerSource: source } };
  } catch (error) {
    if (isSkillgateError(error)) return invalid(index, error.message, error.code);
    throw error;
  }
}

export interface RunSkillScriptDeps {
  runScript: (request: RunRequest) => Promise<RunResult>;
  env: NodeJS.ProcessEnv;
}

const defaultDeps: RunSkillScriptDeps = { runScript, env: process.env };

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
    scan: (paths) => scanFiles(paths),
    // Level 3 also scans the skill's hooks.ts: hooks are code of the same author.
    ...(plan.sandboxLevel === 3
      ? { scanPaths: await runScanPaths(command.scriptPath, command.skill.dir) }
      : {}),
    scanApproved: session.config.exec.approve_scan_findings.includes(command.skill.id),
  };
  const fast = await withTsFastPath(request, tsCacheDir(skillgateHome(hostEnv)), hostEnv);
  return { request: fast.request, warnings: plan.warnings, fastPath: fast.fastPath };
}

function recordOf(command: PreparedCommand, result: RunResult, planWarnings: string[]): CommandRecord {
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

function argvText(session: Session, argv: string[]): string {
  return argv
    .map((part) => (part.startsWith(session.paths.root) ? workspaceRelative(session, part) : part))
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`))
    .join(" ");
}

export async function runSkillScript(
  input: RunSkillScriptInput,
  session: Session,
  deps: RunSkillScriptDeps = defaultDeps,
): Promise<ToolResult> {
  if (!session.skillsEnabled) return skillsDisabledResult("RunSkillScript");
  const snapshot = session.catalog();
  if (!snapshot) return skillRootMissingResult(session);
  const parsed = parseCommandList(input.commands);
  if (!parsed.ok) return parsed.result;
  const prepared: PreparedCommand[] = [];
  for (const [i, raw] of parsed.commands.entries()) {
    const outcome = await prepareCommand(session, snapshot.skills, raw, i + 1);
    if (!outcome.ok) return outcome.result;
    prepared.push(outcome.command);
  }
  const records: CommandRecord[] = [];
  const sections: string[] = [];
  const deadline = Date.now() + session.config.exec.call_timeout_seconds * 1000;
  for (const command of prepared) {
    let prepared_: Awaited<ReturnType<typeof requestFor>>;
    try {
      prepared_ = await requestFor(session, command, deps.env);
    } catch (error) {
      if (!isSkillgateError(error)) throw error;
      const done = command.index - 1;
      return errorResult(
        error.code,
        `Command ${command.index} failed before it ran: ${error.message}\n\n${done === 0 ? "No earlier command ran." : `Commands 1-${done} succeeded; their side effects stay (nothing is rolled back).`} Fix the cause shown above and call RunSkillScript again.`,
        { commands: records, failed_command: command.index, ran: records.length, total: prepared.length },
      );
    }
    const { warnings } = prepared_;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      return errorResult(
        "SCRIPT_FAILED",
        `Command ${command.index} was not run: the call's time budget of ${session.config.exec.call_timeout_seconds} s (exec.call_timeout_seconds) is used up. ${command.index === 1 ? "" : `Commands 1-${command.index - 1} succeeded; their side effects stay (nothing is rolled back). `}Split the work over several RunSkillScript calls or raise exec.call_timeout_seconds.`,
        { commands: records, failed_command: command.index, ran: records.length, total: prepared.length },
      );
    }
    // One call has a total budget: the last command gets only what is left of it.
    const request = {
      ...prepared_.request,
      limits: {
        ...prepared_.request.limits,
        timeoutMs: Math.min(prepared_.request.limits.timeoutMs, remaining),
      },
    };
    const result = await deps.runScript(request);
    const record = recordOf(command, result, warnings);
    records.push(record);
    try {
      await recordReceipt(session, command, result);
    } catch (error) {
      return resultFromError(error);
    }
    if (record.status !== "ok") {
      const done = command.index - 1;
      const skipped = prepared.length - command.index;
      const notes = [
        done === 0
          ? "No earlier command ran."
          : `${done === 1 ? "Command 1 succeeded; its" : `Commands 1-${done} succeeded; their`} side effects stay (nothing is rolled back).`,
        skipped === 0
          ? ""
          : skipped === 1
            ? `Command ${prepared.length} was not run.`
            : `Commands ${command.index + 1}-${prepared.length} were not run.`,
        "Fix the cause shown above and call RunSkillScript again.",
      ].filter(Boolean);
      const failed = result.outcome as FailedOutcome;
      sections.push(`${failureHeading(command.index, failed)}\n${record.output}`.trimEnd());
      return errorResult(failed.code, `${sections.join("\n\n")}\n\n${notes.join(" ")}`, {
        commands: records,
        failed_command: command.index,
        ran: records.length,
        total: prepared.length,
      });
    }
    // Run warnings (limits not enforceable on this host, refused declarations) stay in the structured records.
    sections.push(
      `Command ${command.index} (${argvText(session, record.argv)}) exit code 0:\n${record.output}`.trimEnd(),
    );
  }
  let evidence: string[] = [];
  try {
    const stage = await session.engine.current();
    const stageIds = new Set(stage?.skillList ?? []);
    evidence = [...new Set(prepared.map((command) => command.skill.id))].filter((id) => stageIds.has(id));
    if (evidence.length > 0) {
      await session.engine.recordUse(evidence, {
        commands: records.map((record) => ({
          skill_id: record.skill_id,
          script: record.script,
          argv: record.argv,
        })),
      });
    }
  } catch (error) {
    return resultFromError(error);
  }
  return okResult(sections.join("\n\n"), {
    commands: records,
    ran: records.length,
    total: prepared.length,
    used: evidence,
  });
}

/** A signed run receipt: what ran (script hash as bound in the ledger), how it ended, and hashes of its output. */
async function recordReceipt(session: Session, command: PreparedCommand, result: RunResult): Promise<void> {
  if (!session.engine.recordRun) return;
  const trusted = session.engine.trustedManifest ? await session.engine.trustedManifest() : null;
  const rel = `${command.skill.id}/scripts/${command.script}`;
  await session.engine.recordRun({
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
  });
}

export const runSkillScriptTool: ToolDefinition<typeof runSkillScriptInput> = {
  name: "RunSkillScript",
  description:
    "Run the commands in a list declared in the SKILL.md of a skill. Each command is [skill_id, script_filename, " +
    "args] (Skill ID and script file as shown by ListSkill). Commands run in order without a shell, in the " +
    "workspace, with DUT and OUT set; the call stops at the first failure and earlier side effects stay.",
  inputSchema: runSkillScriptInput,
  skillTool: true,
  // One queue per session, so a server's clients together run at most max_parallel_runs calls at once.
  handler: (input, session) =>
    runQueueFor(session, session.config.exec.max_parallel_runs).run(() => runSkillScript(input, session)),
};
