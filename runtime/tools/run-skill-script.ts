// RunSkillScript: validates every [skill_id, script, args] command first, then runs them in order (no shell) and records use.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { isSkillgateError } from "../errors.js";
import type { RunRequest, RunResult } from "../exec/index.js";
import { type FailedOutcome, failureHeading, preparingAfter, runQueueFor, runScript } from "../exec/index.js";
import {
  errorResult,
  okResult,
  resultFromError,
  skillRootMissingResult,
  skillsDisabledResult,
} from "./results.js";
import {
  type PreparedCommand,
  parseCommandList,
  prepareCommand,
  type ScriptToVerify,
  verifyScripts,
} from "./run-skill-script/commands.js";
import {
  argvText,
  type CommandRecord,
  callUseOf,
  recordOf,
  recordReceipt,
  requestFor,
  stageUseOf,
  type UseEvidence,
} from "./run-skill-script/records.js";
import { refusalOf, type StartChecks, startChecks } from "./run-skill-script/start-checks.js";
import type { Session, ToolDefinition } from "./types.js";

export { type PreparedCommand, parseCommandList, prepareCommand } from "./run-skill-script/commands.js";
export { type CommandRecord, requestFor } from "./run-skill-script/records.js";

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

export interface RunSkillScriptDeps {
  runScript: (request: RunRequest) => Promise<RunResult>;
  env: NodeJS.ProcessEnv;
}

const defaultDeps: RunSkillScriptDeps = { runScript, env: process.env };

export async function runSkillScript(
  input: RunSkillScriptInput,
  session: Session,
  deps: RunSkillScriptDeps = defaultDeps,
  /** `session.catalogMark()` when the call arrived (before the queue): the catalog holds every change made before. */
  arrived?: number,
): Promise<ToolResult> {
  if (!session.skillsEnabled) return skillsDisabledResult("RunSkillScript");
  const snapshot = session.catalog(arrived);
  if (!snapshot) return skillRootMissingResult(session);
  const parsed = parseCommandList(input.commands);
  if (!parsed.ok) return parsed.result;
  // An engine that starts on use starts while the first sandbox is built; what needs it is checked then, before
  // the script is released, and each refusal still wins over what comes after it in the order of the checks.
  const later = session.engineStarted !== undefined;
  const prepared: PreparedCommand[] = [];
  for (const [i, raw] of parsed.commands.entries()) {
    const outcome = await prepareCommand(session, snapshot.skills, raw, i + 1, later ? "later" : "verify");
    if (!outcome.ok) {
      const before = [...prepared.map(scriptOf), ...(outcome.unverified ? [outcome.unverified] : [])];
      return ((later ? await verifyScripts(session, before) : null) ?? outcome).result;
    }
    prepared.push(outcome.command);
  }
  const checks = later ? startChecks(session, prepared.map(scriptOf)) : null;
  const records: CommandRecord[] = [];
  const sections: string[] = [];
  let use: UseEvidence = { skillIds: [], detail: {} };
  let used: string[] | null = null;
  const deadline = Date.now() + session.config.exec.call_timeout_seconds * 1000;
  for (const command of prepared) {
    let prepared_: Awaited<ReturnType<typeof requestFor>>;
    try {
      prepared_ = await requestFor(session, command, deps.env);
    } catch (error) {
      if (!isSkillgateError(error)) throw error;
      const refused = await failedCheck(checks);
      if (refused) return refused;
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
      const refused = await failedCheck(checks);
      if (refused) return refused;
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
      ...(checks ? { startGate: checks.gate } : {}),
    };
    const result = await deps.runScript(request);
    // A run that stopped before its gate (a refusal of its own) was still checked in this order before.
    const refused = await failedCheck(checks);
    if (refused) return refused;
    const record = recordOf(command, result, warnings);
    records.push(record);
    // The whole call succeeded with this command: its use evidence rides on the receipt (one ledger append).
    const last = record.status === "ok" && command.index === prepared.length;
    if (last) use = callUseOf(prepared, records);
    try {
      used = await recordReceipt(session, command, result, last ? use : undefined);
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
  if (used === null) {
    try {
      const stageUse = await stageUseOf(session, use);
      if (stageUse.skillIds.length > 0) await session.engine.recordUse(stageUse.skillIds, stageUse.detail);
      used = stageUse.skillIds;
    } catch (error) {
      return resultFromError(error);
    }
  }
  return okResult(sections.join("\n\n"), {
    commands: records,
    ran: records.length,
    total: prepared.length,
    used,
  });
}

const scriptOf = (command: PreparedCommand): ScriptToVerify => ({
  index: command.index,
  scriptPath: command.scriptPath,
});

/** The answer of the start checks when they refused (run once; the run's gate shares it), else null. */
async function failedCheck(checks: StartChecks | null): Promise<ToolResult | null> {
  const failure = checks ? await checks.run() : null;
  return failure ? refusalOf(failure) : null;
}

export const runSkillScriptTool: ToolDefinition<typeof runSkillScriptInput> = {
  name: "RunSkillScript",
  description:
    "Run the commands in a list declared in the SKILL.md of a skill. Each command is [skill_id, script_filename, " +
    "args] (Skill ID and script file as shown by ListSkill). Commands run in order without a shell, in the " +
    "workspace, with DUT and OUT set; the call stops at the first failure and earlier side effects stay.",
  inputSchema: runSkillScriptInput,
  skillTool: true,
  // One queue per session, so a server's clients together run at most max_parallel_runs calls at once. The next
  // prepared sandbox is made once the call (receipt, result) is done, not while it still runs.
  // The catalog mark is taken on arrival: calls queued together then share one check of the folder watcher, and each
  // still sees every skill change made before it arrived.
  handler: (input, session) => {
    const arrived = session.catalogMark?.();
    return runQueueFor(session, session.config.exec.max_parallel_runs).run(() =>
      preparingAfter(() => runSkillScript(input, session, defaultDeps, arrived)),
    );
  },
};
