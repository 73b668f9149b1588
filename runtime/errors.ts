// The one error type of skillgate: a stable string code plus a message saying what failed, where, the bad value and the fix.

export const ERROR_CODES = [
  "USAGE", // bad CLI usage (exit 2)
  "CONFIG_INVALID", // a config file or flag value breaks the schema
  "CONFIG_UNREADABLE", // a config file cannot be read or parsed
  "FLAG_CONFLICT", // two flags that cannot go together
  "PATH_NOT_FOUND", // a path given by the user does not exist
  "WORKSPACE_NOT_INITIALISED", // <ws>/.ucagent/runtime_config.json missing
  "SKILL_ROOT_MISSING", // <ws>/.ucagent/skills missing
  "SKILLS_DISABLED", // skill support turned off
  "SKILL_NOT_FOUND",
  "SKILL_INVALID",
  "SCRIPT_NOT_FOUND",
  "SCRIPT_MODIFIED", // copied script hash differs from init manifest
  "SCRIPT_PATH_INVALID",
  "RUNNER_CONFIG_INVALID",
  "RUNNER_NOT_FOUND",
  "INVALID_ARGS", // tool input does not match its schema / shlex failure
  "PATH_OUTSIDE_WORKSPACE",
  "FILE_NOT_FOUND",
  "FILE_TOO_LARGE",
  "NOT_TEXT",
  "SANDBOX_UNAVAILABLE",
  "SCAN_REFUSED",
  "SANDBOX_VIOLATION", // a run did what the sandbox forbids (planted git metadata); undone
  "SCRIPT_COMPILE_FAILED", // a .ts helper failed to compile on the fast path (syntax error, not a regular file, too slow)
  "STAGE_INVALID", // workflow/stage config problem
  "WORKFLOW_INVALID", // the workflow cannot start (bad skill_list, checker args, ...): init/serve/call stop
  "WORKFLOW_FINISHED",
  "SKILL_USAGE_INCOMPLETE",
  "SKILL_USAGE_NOT_VALIDATED",
  "SKILL_USAGE_REJECTED",
  "CHECK_FAILED",
  "LEDGER_TAMPERED",
  "LOCK_TIMEOUT",
  "INTERNAL",
  "SCRIPT_FAILED", // a skill script exited non-zero, timed out or hit a limit
  "SCRIPT_SPAWN_FAILED", // a skill script's process could not be started at all (errno and path in the message)
  "SCRIPT_WORKSPACE_LIMIT", // a run created more files or bytes in its writable area than exec.workspace_files / workspace_mb allow
  "NOT_REGULAR_FILE", // a workspace path names a folder, FIFO, device or socket where a file is needed (or a state file is one)
  "NOT_A_DIRECTORY", // a workspace path names something other than a folder where a folder is needed
  "WRITE_NOT_ALLOWED", // a write outside the allowed write folders (or into skillgate's state)
  "FILE_EXISTS", // a create/move would replace an entry it must not
  "FILE_IO_FAILED", // any other file system error, with its errno
  "DISK_FULL", // ENOSPC/EDQUOT while writing (never reported as tampering)
  "PERMISSION_DENIED", // EACCES/EPERM/EROFS (never reported as tampering)
  "AUTHORITY_REFUSED", // serve --authority refused to start (same uid as the workspace owner, root, bad setup)
  "AUTHORITY_STATE_FOREIGN", // the state folder is not owned by the authority or is writable by others
  "AUTHORITY_UNREACHABLE", // the workspace is served over a socket that does not answer or refuses this user
  "SOCKET_UNAVAILABLE", // the server cannot listen on the requested unix socket
  "LEDGER_KEY_MISMATCH", // the ledger was signed under another home/key or for another workspace path (moved/copied)
  "LEDGER_REPLAY", // the ledger comes from an earlier init of this workspace
  "LEDGER_ROLLBACK", // the ledger is shorter than (or diverges from) the head recorded outside the workspace: an older copy
  "LEDGER_FORMAT_OLD", // a v1 (HMAC) ledger: kept untouched, refused with the fix
  "WORKFLOW_CHANGED", // the effective workflow differs from the one bound in the ledger
  "PACK_CHANGED", // the init manifest differs from the one bound in the ledger
  "VERIFY_FAILED", // `skillgate verify` found a problem
  "FILE_CHANGED", // a file tool's expected_sha256 no longer matches the file
  "MATCH_NOT_FOUND", // ReplaceStringInFile/SearchText/FindFiles found nothing
  "MATCH_NOT_UNIQUE", // ReplaceStringInFile's old_string matches more than once
  "REGEX_TIMEOUT", // a SearchText regular expression ran past its time limit
  "TOOL_DISABLED", // a tool turned off by config (file_tools: false)
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class SkillgateError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "SkillgateError";
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isSkillgateError(value: unknown): value is SkillgateError {
  return value instanceof SkillgateError;
}
