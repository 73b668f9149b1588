// The skill tools' view of the one result builder (stage/results.ts): the same builders, taking a Session.

import type { ToolResult } from "../contracts/index.js";
import { workspaceRelative as relativeTo, skillRootMissingResult as rootMissing } from "../stage/index.js";
import type { Session } from "./types.js";

export {
  errorResult,
  okResult,
  resultFromError,
  skillsDisabledResult,
  withWarnings,
} from "../stage/index.js";

/** Skills are enabled but <ws>/.ucagent/skills is not there. */
export function skillRootMissingResult(session: Pick<Session, "paths">): ToolResult {
  return rootMissing(session.paths);
}

/** Path relative to the workspace with "/" separators (what the agent passes back to ReadTextFile). */
export function workspaceRelative(session: Pick<Session, "paths">, absolutePath: string): string {
  return relativeTo(session.paths, absolutePath);
}
