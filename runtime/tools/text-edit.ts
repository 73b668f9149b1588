// The frame every text-edit tool shares: policy precheck, path lock, the changed-meanwhile recheck, errors as results.
import type { ToolResult } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import {
  type FilePolicy,
  fileErrorResult,
  filePolicy,
  precheckWrite,
  readSnapshot,
  withPathLock,
} from "./file-common.js";
import { errorResult } from "./results.js";
import type { Session } from "./types.js";

/** Runs `edit` under the path lock once the policy allows writing `path`; NOT_TEXT and file errors become results. */
export async function editTextUnderLock(
  session: Session,
  path: string,
  edit: (policy: FilePolicy) => Promise<ToolResult>,
): Promise<ToolResult> {
  const policy = filePolicy(session);
  const refused = await precheckWrite(session, policy, path);
  if (refused) return refused;
  return withPathLock(session, [path], async () => {
    try {
      return await edit(policy);
    } catch (error) {
      if (error instanceof SkillgateError && error.code === "NOT_TEXT") {
        return errorResult("NOT_TEXT", `File ${path} is not a text file.`, { path });
      }
      return fileErrorResult(error, policy, path);
    }
  });
}

/** FILE_NOT_FOUND for an edit of a file that does not exist. */
export function missingFileResult(path: string): ToolResult {
  return errorResult("FILE_NOT_FOUND", `File ${path} does not exist in workspace. Please create it first.`, {
    path,
  });
}

/** FILE_CHANGED when the file no longer has `beforeSha` (another writer outside the lock); null when unchanged. */
export async function changedWhilePreparing(
  session: Session,
  path: string,
  beforeSha: string,
  what: string,
  fix = "Read it again and retry.",
): Promise<ToolResult | null> {
  if ((await readSnapshot(session, path))?.sha256 === beforeSha) return null;
  return errorResult("FILE_CHANGED", `File ${path} changed while ${what} was being prepared. ${fix}`, {
    path,
  });
}
