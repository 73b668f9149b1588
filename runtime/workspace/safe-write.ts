// The one safe way to change workspace files: verified parent folders, an allowed-folders policy, atomic replace.
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, mkdir, open, readdir, rename, rmdir, unlink } from "node:fs/promises";
import { basename, dirname, relative } from "node:path";
import { SkillgateError } from "../errors.js";
import { readWorkspaceFile } from "./safe-file.js";
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
  /** Mode of a new file (default 0o644); an existing file keeps its mode. */
  mode?: number;
  maxBytes?: number;
}

export interface SafeWriteResult {
  path: string;
  size: number;
  created: boolean;
}

interface Parent {
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

function requireAllowed(policy: WritePolicy, rel: string, shown: string): void {
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
async function openParent(
  root: string,
  path: string,
  policy: WritePolicy,
  createParents: boolean,
): Promise<Parent> {
  const realRoot = await realRootOf(root);
  const { shown, lexical } = resolveLexical(root, path);
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
    dir = await openVerified(realRoot, dirname(lexical), dirname(shown) || ".", { directory: true });
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

async function openOrCreateDir(
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

async function entryStats(parent: Parent): Promise<Stats | null> {
  return lstat(at(parent.dir, parent.name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw ioError(error, "inspect", parent.shown);
  });
}

async function syncDir(dir: PathHandle): Promise<void> {
  // The rename is durable only once the folder entry is flushed; some file systems refuse fsync on folders.
  const handle = await open(at(dir), constants.O_RDONLY | constants.O_DIRECTORY).catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/** Writes `data` to `path` atomically (temp file + fsync + rename in the verified parent folder). */
export async function writeWorkspaceFile(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: SafeWriteOptions,
): Promise<SafeWriteResult> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
  const maxBytes = options.maxBytes ?? SAFE_WRITE_MAX_BYTES;
  if (bytes.length > maxBytes)
    throw new SkillgateError(
      "FILE_TOO_LARGE",
      `Writing ${path}: ${bytes.length} bytes is over the ${maxBytes}-byte limit. Write a smaller file.`,
      { path, size: bytes.length, limit: maxBytes },
    );
  const parent = await openParent(root, path, options.policy, options.createParents ?? false);
  const temp = `.${parent.name.slice(0, 100)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let tempCreated = false;
  try {
    const existing = await entryStats(parent);
    if (existing?.isDirectory())
      throw new SkillgateError(
        "NOT_REGULAR_FILE",
        `Path '${parent.shown}' is a folder; it cannot be written as a file.`,
        {
          path: parent.shown,
          kind: "directory",
        },
      );
    const overwrite = options.overwrite ?? true;
    if (existing && !overwrite) throw exists(parent.shown);
    const mode = existing?.isFile() ? existing.mode & 0o777 : (options.mode ?? 0o644);
    const handle = await open(
      at(parent.dir, temp),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    tempCreated = true;
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (overwrite) await rename(at(parent.dir, temp), at(parent.dir, parent.name));
    else {
      await link(at(parent.dir, temp), at(parent.dir, parent.name)).catch((error: NodeJS.ErrnoException) => {
        throw error.code === "EEXIST" ? exists(parent.shown) : error;
      });
      await unlink(at(parent.dir, temp));
    }
    tempCreated = false;
    await syncDir(parent.dir);
    return { path: parent.rel, size: bytes.length, created: existing === null };
  } catch (error) {
    if (tempCreated) await unlink(at(parent.dir, temp)).catch(() => undefined);
    throw ioError(error, "write", parent.shown);
  } finally {
    await closeAll(parent.dir);
  }
}

function exists(shown: string): SkillgateError {
  return new SkillgateError(
    "FILE_EXISTS",
    `Path '${shown}' already exists; choose another name or allow overwrite.`,
    {
      path: shown,
    },
  );
}

/** Creates a folder (and its parents when `recursive`); an existing folder is fine. */
export async function mkdirWorkspace(
  root: string,
  path: string,
  options: { policy: WritePolicy; recursive?: boolean },
): Promise<{ path: string; created: boolean }> {
  const parent = await openParent(root, path, options.policy, options.recursive ?? false);
  try {
    const existing = await entryStats(parent);
    if (existing?.isDirectory()) return { path: parent.rel, created: false };
    if (existing) throw exists(parent.shown);
    await mkdir(at(parent.dir, parent.name));
    return { path: parent.rel, created: true };
  } catch (error) {
    throw ioError(error, "create folder", parent.shown);
  } finally {
    await closeAll(parent.dir);
  }
}

/** Deletes a file, symlink (not its target) or folder (`recursive` for a non-empty one), never leaving the workspace. */
export async function removeWorkspacePath(
  root: string,
  path: string,
  options: { policy: WritePolicy; recursive?: boolean },
): Promise<{ path: string; removed: number }> {
  const parent = await openParent(root, path, options.policy, false);
  try {
    const existing = await entryStats(parent);
    if (!existing) throw ioError({ code: "ENOENT" }, "delete", parent.shown);
    if (!existing.isDirectory()) {
      await unlink(at(parent.dir, parent.name));
      return { path: parent.rel, removed: 1 };
    }
    if (!options.recursive) {
      await rmdir(at(parent.dir, parent.name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOTEMPTY" || error.code === "EEXIST")
          throw new SkillgateError(
            "INVALID_ARGS",
            `Folder '${parent.shown}' is not empty; delete it recursively or empty it first.`,
            { path: parent.shown },
          );
        throw error;
      });
      return { path: parent.rel, removed: 1 };
    }
    return {
      path: parent.rel,
      removed: await removeTree(parent.realRoot, parent.dir, parent.name, parent.shown),
    };
  } catch (error) {
    throw ioError(error, "delete", parent.shown);
  } finally {
    await closeAll(parent.dir);
  }
}

/** Removes a folder's contents by descriptor: a sub-folder swapped for a symlink is unlinked, never followed. */
async function removeTree(
  realRoot: string,
  parent: PathHandle,
  name: string,
  shown: string,
): Promise<number> {
  const dir = await openVerified(realRoot, at(parent, name), shown, { directory: true, follow: false });
  let removed = 0;
  try {
    for (const entry of await readdir(at(dir))) {
      const info = await lstat(at(dir, entry)).catch(() => null);
      if (!info) continue;
      if (info.isDirectory()) removed += await removeTree(realRoot, dir, entry, `${shown}/${entry}`);
      else {
        await unlink(at(dir, entry));
        removed += 1;
      }
    }
  } finally {
    await closeAll(dir);
  }
  await rmdir(at(parent, name));
  return removed + 1;
}

/** Copies a regular file (read through the safe reader, written atomically). */
export async function copyWorkspaceFile(
  root: string,
  from: string,
  to: string,
  options: SafeWriteOptions,
): Promise<SafeWriteResult> {
  const source = await readWorkspaceFile(root, from, { maxBytes: options.maxBytes ?? SAFE_WRITE_MAX_BYTES });
  return writeWorkspaceFile(root, to, source.bytes, options);
}

/** Moves (renames) a file or folder; both ends are checked against the policy. */
export async function moveWorkspacePath(
  root: string,
  from: string,
  to: string,
  options: Omit<SafeWriteOptions, "mode" | "maxBytes">,
): Promise<{ from: string; to: string }> {
  const source = await openParent(root, from, options.policy, false);
  let target: Parent | undefined;
  try {
    target = await openParent(root, to, options.policy, options.createParents ?? false);
    if (!(await entryStats(source))) throw ioError({ code: "ENOENT" }, "move", source.shown);
    const existing = await entryStats(target);
    if (existing && (!(options.overwrite ?? false) || existing.isDirectory())) throw exists(target.shown);
    await rename(at(source.dir, source.name), at(target.dir, target.name));
    await syncDir(target.dir);
    await syncDir(source.dir);
    return { from: source.rel, to: target.rel };
  } catch (error) {
    throw ioError(error, "move", source.shown);
  } finally {
    await closeAll(source.dir, target?.dir);
  }
}
