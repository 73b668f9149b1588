// The per-workspace identity kept outside the workspace: a random id per init, so an old ledger put back is a replay.
import { randomBytes } from "node:crypto";
import { chmod, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { readSmallFile, writeFileAtomic } from "../workspace/index.js";

export interface WorkspaceIdentity {
  version: 1;
  workspace: string;
  initId: string;
  createdAt: string;
  publicKey: string;
  fingerprint: string;
}

export function newInitId(): string {
  return randomBytes(16).toString("hex");
}

/** A file of the skillgate home (`what` names it in the error), or null when there is none. */
export async function readHomeFile(file: string, what: string): Promise<string | null> {
  try {
    return await readSmallFile(file);
  } catch (error) {
    if (isSkillgateError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    throw new SkillgateError(
      code === "EACCES" || code === "EPERM" ? "PERMISSION_DENIED" : "FILE_IO_FAILED",
      `cannot read ${what} ${file} (${code}); check its owner and mode, or point SKILLGATE_HOME at your own skillgate home.`,
      { file },
    );
  }
}

/** The identity, or null when this home has none for the workspace. */
export async function readIdentity(file: string): Promise<WorkspaceIdentity | null> {
  const text = await readHomeFile(file, "the workspace identity");
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as WorkspaceIdentity;
    if (parsed.version === 1 && typeof parsed.initId === "string" && typeof parsed.workspace === "string")
      return parsed;
  } catch {
    // reported below
  }
  throw new SkillgateError(
    "LEDGER_KEY_MISMATCH",
    `the workspace identity ${file} is not valid JSON of skillgate; it was edited outside skillgate. Restore it from a backup (nothing in the workspace was changed).`,
    { file },
  );
}

export async function writeIdentity(file: string, identity: WorkspaceIdentity): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(identity, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}
