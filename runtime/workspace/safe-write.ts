// The one safe way to change workspace files: verified parent folders, an allowed-folders policy, atomic replace.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, lstat, mkdir, open, readdir, realpath, rename, rmdir, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { SkillgateError } from "../errors.js";
import { readWorkspaceFile } from "./safe-file.js";
import { at, closeAll, ioError, openVerified, type PathHandle } from "./safe-path.js";
import {
  entryStats,
  openParent,
  type Parent,
  refuseWriteRoot,
  SAFE_WRITE_MAX_BYTES,
  type SafeWriteOptions,
  type SafeWriteResult,
  syncDir,
  type WritePolicy,
} from "./write-policy.js";

export {
  ALWAYS_DENIED_DIRS,
  SAFE_WRITE_MAX_BYTES,
  type SafeWriteOptions,
  type SafeWriteResult,
  type WritePolicy,
  writeAllowed,
} from "./write-policy.js";

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
  const parent = await openParent(root, path, options.policy, options.createParents ?? false, options.label);
  const temp = `.${parent.name.slice(0, 100)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  let tempCreated = false;
  try {
    const existing = await entryStats(parent);
    if (!existing?.isDirectory()) refuseWriteRoot(options.policy, parent, "write");
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
    const mode = existing?.isFile() && !options.forceMode ? existing.mode & 0o777 : (options.mode ?? 0o644);
    const handle = await open(
      at(parent.dir, temp),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    tempCreated = true;
    const sync = options.sync ?? true;
    try {
      await handle.writeFile(bytes);
      // The umask must not loosen or tighten a mode skillgate sets on purpose (0600 keys, 0444 copies).
      if (options.forceMode) await handle.chmod(mode);
      if (sync) await handle.sync();
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
    if (sync) await syncDir(parent.dir);
    return { path: parent.rel, size: bytes.length, created: existing === null };
  } catch (error) {
    if (tempCreated) await unlink(at(parent.dir, temp)).catch(() => undefined);
    throw ioError(error, "write", parent.shown);
  } finally {
    await closeAll(parent.dir);
  }
}

/**
 * Atomic write of a file skillgate itself names outside any workspace policy (home key dir, ledger head,
 * server record, init manifest, `proof --out`): the file's own folder is the trusted base, so the same
 * writer applies (temp + fsync + rename, no symlink followed out of that folder) without a policy or size cap.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: Pick<SafeWriteOptions, "mode" | "sync" | "overwrite"> = {},
): Promise<void> {
  const file = resolve(path);
  const base = await realpath(dirname(file)).catch((error: unknown) => {
    throw ioError(error, "write", file);
  });
  await writeWorkspaceFile(base, basename(file), data, {
    ...options,
    policy: TRUSTED_BASE,
    mode: options.mode ?? 0o644,
    forceMode: true,
    maxBytes: Number.POSITIVE_INFINITY,
    label: file,
  });
}

const TRUSTED_BASE: WritePolicy = { allow: ["."] };

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
    if (existing.isDirectory()) refuseWriteRoot(options.policy, parent);
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

/** Moves (renames) a file or folder; both ends are checked against the policy, and neither may be a write_dirs folder. */
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
    const moved = await entryStats(source);
    if (!moved) throw ioError({ code: "ENOENT" }, "move", source.shown);
    if (moved.isDirectory()) refuseWriteRoot(options.policy, source, "move");
    refuseWriteRoot(options.policy, target, "replace", source.name);
    const existing = await entryStats(target);
    if (existing?.isDirectory())
      throw new SkillgateError(
        "FILE_EXISTS",
        `Path '${target.shown}' is a folder and cannot be replaced by a move; move into it instead, as '${target.shown}/${source.name}'.`,
        { path: target.shown },
      );
    if (existing && !(options.overwrite ?? false)) throw exists(target.shown);
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
