// RunSkillScript's validation: the command list and each [skill_id, script, args] checked before anything runs.
import type { ToolResult } from "../../contracts/index.js";
import { type ErrorCode, isSkillgateError } from "../../errors.js";
import { checkScriptPath, resolveRunner, scriptNameProblem, splitArgs } from "../../exec/index.js";
import type { SkillRecord } from "../../skills/index.js";
import { normaliseSkillId } from "../../skills/index.js";
import { verifyCopiedFile } from "../../workspace/index.js";
import { errorResult, workspaceRelative } from "../results.js";
import type { Session } from "../types.js";

export interface PreparedCommand {
  index: number;
  skill: SkillRecord;
  script: string;
  scriptPath: string;
  args: string[];
  runner: string;
  runnerSource: string;
}

type Invalid = {
  ok: false;
  result: ToolResult;
  /** Left to verifyScripts ("later"): this command's own script digest, which is checked before this failure. */
  unverified?: ScriptToVerify;
};

/** A command's script whose digest is checked against the ledger's manifest. */
export interface ScriptToVerify {
  index: number;
  scriptPath: string;
}

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

/**
 * Validates one command; never runs anything. `scripts: "later"` leaves the script's digest check (the only one that
 * needs the stage engine) to verifyScripts, which the caller runs before the script is released.
 */
export async function prepareCommand(
  session: Session,
  skills: SkillRecord[],
  raw: unknown,
  index: number,
  scripts: "verify" | "later" = "verify",
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
  if (scripts === "verify") {
    const modified = await verifyScripts(session, [{ index, scriptPath }]);
    if (modified !== null) return modified;
  }
  try {
    const { runner, source } = await resolveRunner({
      scriptPath,
      skillDir: skill.dir,
      skillsRoot: session.paths.skillsDir,
      cwd: session.paths.root,
    });
    return { ok: true, command: { index, skill, script, scriptPath, args, runner, runnerSource: source } };
  } catch (error) {
    if (!isSkillgateError(error)) throw error;
    const failed = invalid(index, error.message, error.code);
    return scripts === "verify" ? failed : { ...failed, unverified: { index, scriptPath } };
  }
}

/** The first script (in command order) whose copy differs from what the ledger binds, as its `Command k invalid`. */
export async function verifyScripts(session: Session, scripts: ScriptToVerify[]): Promise<Invalid | null> {
  if (scripts.length === 0) return null;
  const trusted = session.engine.trustedManifest ? await session.engine.trustedManifest() : null;
  for (const { index, scriptPath } of scripts) {
    const verified = await verifyCopiedFile(session.paths, scriptPath, trusted);
    if (!verified.ok) return invalid(index, verified.message, "SCRIPT_MODIFIED");
  }
  return null;
}
