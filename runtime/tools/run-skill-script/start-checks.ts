// RunSkillScript's checks left for while the first sandbox is built (one-shot `call`): the engine's start and the scripts' digests.
import type { ToolResult } from "../../contracts/index.js";
import type { Session } from "../types.js";
import { type ScriptToVerify, verifyScripts } from "./commands.js";

/** A refusal: a `Command k invalid` answer, or what a check threw (thrown again as the call's answer). */
export type CheckFailure = { result: ToolResult } | { error: unknown };

export interface StartChecks {
  /** Runs the checks once; every later call shares that answer. Null: they passed. */
  run(): Promise<CheckFailure | null>;
  /** RunRequest.startGate: the script is released only when the checks passed. */
  gate(): Promise<boolean>;
}

export function startChecks(session: Session, scripts: ScriptToVerify[]): StartChecks {
  let checked: Promise<CheckFailure | null> | undefined;
  const run = (): Promise<CheckFailure | null> => {
    checked ??= (async () => {
      try {
        await session.engineStarted?.();
        const modified = await verifyScripts(session, scripts);
        return modified === null ? null : { result: modified.result };
      } catch (error) {
        return { error };
      }
    })();
    return checked;
  };
  return { run, gate: async () => (await run()) === null };
}

/** The call's answer for a failed check: the same result, or the same throw, as when it ran before the run. */
export function refusalOf(failure: CheckFailure): ToolResult {
  if ("error" in failure) throw failure.error;
  return failure.result;
}
