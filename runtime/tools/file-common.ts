// Shared parts of the UCAgent file tools: the write policy from config, refusal wording, text snapshots, diffs, a path lock.
import { createHash } from "node:crypto";
import { posix, resolve } from "node:path";
import { createTwoFilesPatch } from "diff";
import { insideRelative, type ToolResult } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import {
  readWorkspaceText,
  resolveWorkspacePlaceholders,
  statWorkspacePathIfExists,
  type WritePolicy,
  writeAllowed,
} from "../workspace/index.js";
import { errorResult } from "./results.js";
import type { Session } from "./types.js";

/** Largest text a file tool reads or writes (as ReadTextFile). */
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;
/** A diff in a result is cut here (UCAgent's DEFAULT_MAX_DIFF_CHARS). */
export const MAX_DIFF_CHARS = 20_000;
/** skillgate's state and the skill copy: never written by a file tool, whatever write_dirs says. */
export const STATE_DIR = ".ucagent";

export interface FilePolicy {
  policy: WritePolicy;
  /** Workspace-relative folders as shown to the agent ("." for the whole workspace). */
  allow: string[];
  deny: string[];
  /** Configured entries that lie outside the workspace, hence ignored. */
  ignored: string[];
}

function toWorkspaceDir(session: Session, entry: string): string | null {
  const absolute = resolve(session.paths.root, resolveWorkspacePlaceholders(entry, session.runtime));
  return insideRelative(session.paths.root, absolute);
}

/** write_dirs / un_write_dirs of the config resolved to workspace-relative folders; `.ucagent` is always denied. */
export function filePolicy(session: Session): FilePolicy {
  const ignored: string[] = [];
  const resolveAll = (entries: string[]) =>
    entries.flatMap((entry) => {
      const dir = toWorkspaceDir(session, entry);
      if (dir === null) ignored.push(entry);
      return dir === null ? [] : [dir];
    });
  const allow = resolveAll(session.config.write_dirs);
  const deny = [...resolveAll(session.config.un_write_dirs).filter((dir) => dir !== ""), STATE_DIR];
  return {
    policy: { allow, deny },
    allow: allow.map((dir) => dir || "."),
    deny,
    ignored,
  };
}

/** Workspace-relative, "/"-separated, normalised form of a path an agent gave (lexical only). */
export function lexicalRel(session: Session, path: string): string | null {
  return insideRelative(session.paths.root, resolve(session.paths.root, path));
}

function listDirs(dirs: string[]): string {
  return dirs.length === 0 ? "(none)" : dirs.map((dir) => `${dir === "." ? "." : `${dir}/`}`).join(", ");
}

/** UCAgent's wording for a refused write, with where writes may go instead. */
export function writeRefusedText(policy: FilePolicy, path: string): string {
  const ignored =
    policy.ignored.length > 0
      ? ` (write_dirs/un_write_dirs entries outside the workspace are ignored: ${policy.ignored.join(", ")})`
      : "";
  return (
    `Path '${path}' is not allowed to write, except in: ${listDirs(policy.allow)} (write_dirs); never in ` +
    `${listDirs(policy.deny)} (un_write_dirs and skillgate's state)${ignored}. Write the stage outputs inside an ` +
    "allowed folder."
  );
}

/**
 * Refuses a write target outside the policy (lexically, before any change), or one whose last component is a
 * symbolic link (UCAgent never modifies through a link). The safe write layer checks the real paths again.
 */
export async function precheckWrite(
  session: Session,
  policy: FilePolicy,
  path: string,
): Promise<ToolResult | null> {
  if (/^[A-Za-z]:[\\/]/.test(path) || path.startsWith("/")) {
    return errorResult(
      "PATH_OUTSIDE_WORKSPACE",
      `Path '${path}' must be relative to the workspace; absolute paths are not allowed.`,
      { path },
    );
  }
  const rel = lexicalRel(session, path);
  if (rel === null) {
    return errorResult("PATH_OUTSIDE_WORKSPACE", `Path '${path}' is not within the workspace.`, { path });
  }
  if (rel === "") {
    return errorResult("INVALID_ARGS", "The workspace root cannot be modified directly.", { path });
  }
  if (!writeAllowed(policy.policy, rel))
    return errorResult("WRITE_NOT_ALLOWED", writeRefusedText(policy, path), { path });
  try {
    const entry = await statWorkspacePathIfExists(session.paths.root, path, { follow: false });
    // A missing entry: its nearest existing folder must not lead out of the workspace either.
    for (let dir = posix.dirname(rel); !entry && dir !== "." && dir !== ""; dir = posix.dirname(dir)) {
      if (await statWorkspacePathIfExists(session.paths.root, dir, { follow: true })) break;
    }
    if (entry?.kind === "symlink") {
      return errorResult(
        "PATH_OUTSIDE_WORKSPACE",
        `Refusing to modify path '${path}' through a symbolic link.`,
        {
          path,
        },
      );
    }
  } catch (error) {
    return fileErrorResult(error, policy, path);
  }
  return null;
}

/** A SkillgateError of the safe file layer as a tool result (the policy refusal in UCAgent's words). */
export function fileErrorResult(
  error: unknown,
  policy: FilePolicy | null,
  path: string,
  prefix = "",
): ToolResult {
  if (!(error instanceof SkillgateError)) throw error;
  if (error.code === "WRITE_NOT_ALLOWED" && policy && error.details.reason !== "write_root") {
    return errorResult("WRITE_NOT_ALLOWED", `${prefix}${writeRefusedText(policy, path)}`, { path });
  }
  if (error.code === "PATH_OUTSIDE_WORKSPACE" && error.details.reason === "escape") {
    return errorResult(
      "PATH_OUTSIDE_WORKSPACE",
      `${prefix}Refusing to use path '${path}' through a symbolic link that leads outside the workspace.`,
      { path, target: error.details.target },
    );
  }
  return errorResult(error.code, `${prefix}${error.message}`, { path, details: error.details });
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export const SHA256_OF_EMPTY = sha256Hex("");

export interface TextSnapshot {
  text: string;
  sha256: string;
  /** Dominant newline of the file ("\r\n", "\r" or "\n"). */
  newline: string;
}

/** Reads a workspace text file through the safe reader; null when it does not exist. */
export async function readSnapshot(session: Session, path: string): Promise<TextSnapshot | null> {
  try {
    const read = await readWorkspaceText(session.paths.root, path, { maxBytes: MAX_TEXT_BYTES });
    const newline = read.text.includes("\r\n") ? "\r\n" : read.text.includes("\r") ? "\r" : "\n";
    return { text: read.text, sha256: read.sha256, newline };
  } catch (error) {
    if (
      error instanceof SkillgateError &&
      error.code === "FILE_NOT_FOUND" &&
      error.details.reason === "missing"
    ) {
      return null;
    }
    throw error;
  }
}

/** Caller text converted to the file's newline convention (UCAgent's _convert_newlines). */
export function convertNewlines(text: string, newline: string): string {
  const normalised = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  return newline === "\n" ? normalised : normalised.replace(/\n/g, newline);
}

/** "\n[DIFF]\n" + a unified diff (old/new labels as UCAgent's), cut at MAX_DIFF_CHARS. */
export function diffText(path: string, before: string, after: string): string {
  if (before === after) return "\n[DIFF]\nNo changes detected.";
  const patch = createTwoFilesPatch(`${path}(old)`, `${path}(new)`, before, after, "", "", { context: 3 })
    .replace(/^=+\n/, "")
    .replace(/^(---|\+\+\+) (.*)\t\n/gm, "$1 $2\n");
  if (patch.length <= MAX_DIFF_CHARS) return `\n[DIFF]\n${patch}`;
  const omitted = patch.length - MAX_DIFF_CHARS;
  return `\n[DIFF]\n${patch.slice(0, MAX_DIFF_CHARS)}\n... [DIFF truncated; ${omitted} characters omitted]`;
}

/** The stale-read refusal shared by the editing tools. */
export function changedSinceRead(
  path: string,
  expected: string,
  current: string,
  retry = "Read it again and retry.",
): ToolResult {
  return errorResult(
    "FILE_CHANGED",
    `File ${path} changed after it was read. Expected SHA256 ${expected}, current SHA256 ${current}. ${retry}`,
    { path, expected_sha256: expected, current_sha256: current },
  );
}

const pathLocks = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call holding one of these workspace paths (read-modify-write in one process). */
export async function withPathLock<T>(session: Session, paths: string[], work: () => Promise<T>): Promise<T> {
  const keys = [...new Set(paths.map((path) => resolve(session.paths.root, path)))].sort();
  const previous = keys.map((key) => pathLocks.get(key) ?? Promise.resolve());
  const run = Promise.allSettled(previous).then(work);
  const settled = run.catch(() => undefined);
  for (const key of keys) pathLocks.set(key, settled);
  try {
    return await run;
  } finally {
    for (const key of keys) if (pathLocks.get(key) === settled) pathLocks.delete(key);
  }
}

/** UCAgent's bytes_to_human_readable. */
export function humanSize(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 ** 2) return `${(size / 1024).toFixed(2)} KB`;
  if (size < 1024 ** 3) return `${(size / 1024 ** 2).toFixed(2)} MB`;
  return `${(size / 1024 ** 3).toFixed(2)} GB`;
}

/** Python fnmatch.fnmatchcase as a RegExp (*, ?, [seq], [!seq]); `ignoreCase` for fnmatch on lowered text. */
export function fnmatchRegExp(pattern: string, ignoreCase = false): RegExp {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") out += "[\\s\\S]*";
    else if (c === "?") out += "[\\s\\S]";
    else if (c === "[") {
      // As Python's translate: a "]" right after "[" or "[!" belongs to the set.
      let first = i + 1;
      if (pattern[first] === "!") first++;
      if (pattern[first] === "]") first++;
      const end = pattern.indexOf("]", first);
      if (end === -1) out += "\\[";
      else {
        let body = pattern.slice(i + 1, end);
        const negate = body.startsWith("!");
        if (negate) body = body.slice(1);
        // A "]" first in the set is literal (Python); JS needs it escaped, or "[]" would match nothing.
        out += `[${negate ? "^" : ""}${body.replace(/\\/g, "\\\\").replace(/\^/g, "\\^").replace(/\]/g, "\\]")}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^(?:${out})$`, ignoreCase ? "i" : "");
}
