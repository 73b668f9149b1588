// What writes may touch and how they reach it: the allowed-folders policy, verified parent folders, folder syncs.
import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open } from "node:fs/promises";
import { basename, dirname, relative } from "node:path";
import { SkillgateError } from "../errors.js";
import {
  at,
  checkName,
  closeAll,
  ioError,
  openVerified,
  type PathHandle,
  realRootOf,
  relativeTo,
  resolveLexical,
} from "./safe-path.js";

/** Largest file one write may create (default). */
export const SAFE_WRITE_MAX_BYTES = 10 * 1024 * 1024;
/** skillgate's own state and the copied pack: never written through this module, whatever the policy says. */
export const ALWAYS_DENIED_DIRS = [".ucagent/skillgate", ".ucagent/skills"] as const;

export interface WritePolicy {
  /** Workspace-relative folders writes may go into; "." (or "") is the whole workspace. Checked on real paths. */
  allow: readonly string[];
  /** Workspace-relative folders refused even inside an allowed one; ALWAYS_DENIED_DIRS are added. */
  deny?: readonly string[];
}

export interface SafeWriteOptions {
  policy: WritePolicy;
  /** Replace an existing file (default true); false refuses with FILE_EXISTS, atomically. */
  overwrite?: boolean;
  /** Create missing parent folders (each one checked against the policy). Default false. */
  createParents?: boolean;
  /** Mode of a new file (default 0o644); an existing file keeps its mode unless `forceMode`. */
  mode?: number;
  /** Give a replaced file `mode` too (skillgate's own state files, e.g. 0o600 keys). */
  forceMode?: boolean;
  maxBytes?: number;
  /**
   * fsync the file and its folder (default true). Only init's pack copies turn it off: their hashes in the
   * (synced) manifest catch a torn copy, and a sync per file would cost init ~5 ms for each of thousands of files.
   */
  sync?: boolean;
  /** How the path appears in messages (default: `path` as given). */
  label?: string;
}

export interface SafeWriteResult {
  path: string;
  size: number;
  created: boolean;
}

export interface Parent {
  dir: PathHandle;
  name: string;
  shown: string;
  /** Workspace-relative real path of the entry (parent's real path + name). */
  rel: string;
  realRoot: string;
}

function normaliseDir(dir: string): string {
  const trimmed = dir
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  return trimmed === "." ? "" : trimmed;
}

function under(rel: string, dir: string): boolean {
  return dir === "" || rel === dir || rel.startsWith(`${dir}/`);
}

/** Pure policy check on a workspace-relative real path. */
export function writeAllowed(policy: WritePolicy, rel: string): boolean {
  const deny = [...ALWAYS_DENIED_DIRS, ...(policy.deny ?? [])].map(normaliseDir);
  if (deny.some((d) => under(rel, d))) return false;
  return policy.allow.map(normaliseDir).some((a) => under(rel, a));
}

/** What is refused of a write_dirs folder itself, and the fix the refusal names. */
export type WriteRootAction = "delete" | "move" | "replace" | "write";

/**
 * A write_dirs folder itself is never deleted, moved away, replaced by a move or written as a file, made yet or not
 * (the stage outputs live there; the agent meant its contents); what is inside it may be. Checked on the real path, so no alias through a linked parent
 * slips by. `as` (for "replace") is the path the moved entry could take inside the folder instead.
 */
export function refuseWriteRoot(
  policy: WritePolicy,
  parent: Parent,
  action: WriteRootAction = "delete",
  as = "",
): void {
  if (!isWriteRoot(policy, parent.rel)) return;
  const named = parent.shown === parent.rel ? `'${parent.rel}'` : `'${parent.shown}' (${parent.rel})`;
  const refused = {
    delete: `cannot be deleted itself; delete the files and folders inside it instead (PathList '${parent.rel}' lists them)`,
    move: `cannot be moved itself; move the files and folders inside it instead (PathList '${parent.rel}' lists them)`,
    replace: `cannot be replaced by a move; move the file into it instead, as '${parent.rel}/${as}'`,
    write: `cannot be written as a file; write the file inside it instead, as '${parent.rel}/<file name>'`,
  }[action];
  throw new SkillgateError(
    "WRITE_NOT_ALLOWED",
    `Path ${named} is a writable root folder (write_dirs) and ${refused}.`,
    {
      path: parent.shown,
      resolved: parent.rel,
      reason: "write_root",
    },
  );
}

/** `rel` (a workspace-relative real path) is a write_dirs folder itself. */
export function isWriteRoot(policy: WritePolicy, rel: string): boolean {
  return policy.allow.map(normaliseDir).some((dir) => dir !== "" && dir === rel);
}

export function requireAllowed(policy: WritePolicy, rel: string, shown: string): void {
  if (writeAllowed(policy, rel)) return;
  const allow = policy.allow.map((a) => normaliseDir(a) || ".").join(", ") || "(none)";
  throw new SkillgateError(
    "WRITE_NOT_ALLOWED",
    `Writing '${shown}' (${rel || "."}) is not allowed: writes may go only into ${allow}, and never into ` +
      `${[...ALWAYS_DENIED_DIRS, ...(policy.deny ?? [])].join(", ")}. Write inside an allowed folder, or ask the ` +
      "operator to add the folder to the allowed write folders.",
    { path: shown, resolved: rel, allow: policy.allow, deny: policy.deny ?? [] },
  );
}

/** Verifies the parent folder of `path` (creating it when asked) and checks the entry against the policy. */
export async function openParent(
  root: string,
  path: string,
  policy: WritePolicy,
  createParents: boolean,
  label?: string,
): Promise<Parent> {
  const realRoot = await realRootOf(root);
  const resolved = resolveLexical(root, path);
  const { lexical } = resolved;
  const shown = label ?? resolved.shown;
  const name = basename(lexical);
  if (lexical === root || relative(root, lexical) === "")
    throw new SkillgateError(
      "INVALID_ARGS",
      `Path '${shown}' is the workspace itself; name a file or folder in it.`,
      {
        path: shown,
      },
    );
  checkName(name, shown);
  let dir: PathHandle;
  if (createParents) {
    dir = await openVerified(realRoot, root, ".", { directory: true });
    const parts = relative(root, dirname(lexical))
      .split(/[\\/]/)
      .filter((p) => p !== "");
    for (const part of parts) {
      const next = await openOrCreateDir(realRoot, dir, part, policy, shown).finally(() => closeAll(dir));
      dir = next;
    }
  } else {
    dir = await openVerified(realRoot, dirname(lexical), dirname(shown), { directory: true });
  }
  const rel = [relativeTo(realRoot, dir.real), name].filter((p) => p !== "").join("/");
  try {
    requireAllowed(policy, rel, shown);
  } catch (error) {
    await closeAll(dir);
    throw error;
  }
  return { dir, name, shown, rel, realRoot };
}

export async function openOrCreateDir(
  realRoot: string,
  parent: PathHandle,
  part: string,
  policy: WritePolicy,
  shown: string,
): Promise<PathHandle> {
  try {
    return await openVerified(realRoot, at(parent, part), shown, { directory: true });
  } catch (error) {
    if (!(error instanceof SkillgateError) || error.code !== "FILE_NOT_FOUND") throw error;
  }
  requireAllowed(policy, [relativeTo(realRoot, parent.real), part].filter((p) => p !== "").join("/"), shown);
  await mkdir(at(parent, part)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw ioError(error, "create folder for", shown);
  });
  return openVerified(realRoot, at(parent, part), shown, { directory: true, follow: false });
}

export async function entryStats(parent: Parent): Promise<Stats | null> {
  return lstat(at(parent.dir, parent.name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw ioError(error, "inspect", parent.shown);
  });
}

export async function syncDir(dir: PathHandle): Promise<void> {
  // The rename is durable only once the folder entry is flushed; some file systems refuse fsync on folders.
  const handle = await open(at(dir), constants.O_RDONLY | constants.O_DIRECTORY).catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}
