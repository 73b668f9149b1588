// Resolves a workspace path to a descriptor the kernel vouches for: lexical checks, open, then ask where it really is.
import { constants, existsSync, type Stats } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { isInside } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";

/**
 * Linux O_PATH: a descriptor that names an inode without opening it, so a device or FIFO
 * named by a hostile path is never opened (no driver side effects, never blocks).
 */
const O_PATH = 0o10000000;
/** Descriptor paths come from /proc on Linux; elsewhere we fall back to lstat + inode comparison. */
export const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd");

export interface ResolvedPath {
  /** The path as the caller gave it, for messages. */
  shown: string;
  /** Absolute lexical path: root joined with the request. */
  lexical: string;
}

/** A verified descriptor: `real` is where the kernel says it points, inside the workspace's real root. */
export interface PathHandle {
  handle: FileHandle;
  real: string;
  stats: Stats;
}

const realRoots = new Map<string, string>();

/** Real path of the workspace root, memoised so a root swapped later cannot widen what counts as inside. */
export async function realRootOf(root: string): Promise<string> {
  const known = realRoots.get(root);
  if (known) return known;
  const real = await realpath(root).catch((error: NodeJS.ErrnoException) => {
    throw new SkillgateError("FILE_NOT_FOUND", `Workspace ${root} cannot be resolved (${error.code}).`, {
      path: root,
      reason: "missing",
    });
  });
  realRoots.set(root, real);
  return real;
}

/** Workspace-relative "/"-separated form of a real path ("" is the root itself). */
export function relativeTo(realRoot: string, real: string): string {
  return relative(realRoot, real).split(sep).join("/");
}

/** Lexical checks: relative (absolute only when allowed and inside), no `..` out of the root, no NUL. */
export function resolveLexical(root: string, path: string, allowAbsolute = false): ResolvedPath {
  if (path.includes("\0"))
    throw new SkillgateError("INVALID_ARGS", `Path '${path.replace(/\0/g, "\\0")}' contains a NUL byte.`, {
      path,
      reason: "nul",
    });
  const absolute = isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path);
  if (absolute && !allowAbsolute)
    throw new SkillgateError(
      "PATH_OUTSIDE_WORKSPACE",
      `Path '${path}' is absolute; give it relative to ${root}.`,
      {
        path,
        reason: "absolute",
      },
    );
  const lexical = resolve(root, path);
  if (!isInside(root, lexical))
    throw new SkillgateError(
      "PATH_OUTSIDE_WORKSPACE",
      `Path '${path}' is not within the workspace: it leads outside ${root}.`,
      { path, reason: absolute ? "absolute" : "dotdot" },
    );
  return { shown: path, lexical };
}

/** Maps an errno from a workspace file operation to a stable code and a message saying what to do. */
export function ioError(error: unknown, action: string, shown: string): SkillgateError {
  if (error instanceof SkillgateError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? "";
  const details = { path: shown, errno: code };
  if (code === "ENOENT" || code === "ENOTDIR")
    return new SkillgateError("FILE_NOT_FOUND", `Cannot ${action} ${shown}: it does not exist.`, {
      ...details,
      reason: "missing",
    });
  if (code === "ENOSPC" || code === "EDQUOT")
    return new SkillgateError(
      "DISK_FULL",
      `Cannot ${action} ${shown}: the disk is full (${code}). Free space on that file system and retry.`,
      details,
    );
  if (code === "EACCES" || code === "EPERM" || code === "EROFS")
    return new SkillgateError(
      "PERMISSION_DENIED",
      `Cannot ${action} ${shown}: permission denied (${code}). Check the owner and mode of the file and its folders.`,
      details,
    );
  if (code === "ELOOP")
    return new SkillgateError(
      "FILE_NOT_FOUND",
      `Cannot ${action} ${shown}: too many symbolic links (ELOOP).`,
      {
        ...details,
        reason: "loop",
      },
    );
  return new SkillgateError(
    "FILE_IO_FAILED",
    `Cannot ${action} ${shown}: ${code || (error as Error).message}.`,
    details,
  );
}

function outside(shown: string, real: string, realRoot: string): SkillgateError {
  return new SkillgateError(
    "PATH_OUTSIDE_WORKSPACE",
    `Path '${shown}' is not within the workspace: it resolves to ${real}, outside ${realRoot}.`,
    { path: shown, reason: "escape", target: real, realRoot },
  );
}

/** The path through which operations act on a name inside a verified folder (openat by way of /proc). */
export function at(dir: PathHandle, name = ""): string {
  const base = PROC_FD ? `/proc/self/fd/${dir.handle.fd}` : dir.real;
  return name === "" ? base : `${base}/${name}`;
}

/**
 * Opens `lexical` (following symlinks unless `follow` is false) as a path-only descriptor and
 * verifies that the kernel's own idea of its location is inside the workspace's real root.
 */
export async function openVerified(
  realRoot: string,
  lexical: string,
  shown: string,
  options: { follow?: boolean; directory?: boolean } = {},
): Promise<PathHandle> {
  const follow = options.follow ?? true;
  if (!PROC_FD) return openVerifiedFallback(realRoot, lexical, shown, follow, options.directory ?? false);
  const flags =
    O_PATH | (follow ? 0 : constants.O_NOFOLLOW) | (options.directory ? constants.O_DIRECTORY : 0);
  let handle: FileHandle;
  try {
    handle = await open(lexical, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (options.directory && code === "ENOTDIR")
      throw new SkillgateError("NOT_A_DIRECTORY", `Path '${shown}' is not a folder.`, { path: shown });
    throw ioError(error, "open", shown);
  }
  try {
    const real = await readlink(`/proc/self/fd/${handle.fd}`);
    if (real.endsWith(" (deleted)")) throw ioError({ code: "ENOENT" }, "open", shown);
    if (!isInside(realRoot, real)) throw outside(shown, real, realRoot);
    return { handle, real, stats: await handle.stat() };
  } catch (error) {
    await handle.close();
    throw ioError(error, "open", shown);
  }
}

/** Without /proc: resolve, lstat, open without following, and require the same inode as the lstat. */
async function openVerifiedFallback(
  realRoot: string,
  lexical: string,
  shown: string,
  follow: boolean,
  directory: boolean,
): Promise<PathHandle> {
  let real: string;
  try {
    real = follow ? await realpath(lexical) : join(await realpath(dirname(lexical)), basename(lexical));
  } catch (error) {
    throw ioError(error, "open", shown);
  }
  if (!isInside(realRoot, real)) throw outside(shown, real, realRoot);
  const before = await lstat(real).catch((error) => {
    throw ioError(error, "open", shown);
  });
  if (directory && !before.isDirectory())
    throw new SkillgateError("NOT_A_DIRECTORY", `Path '${shown}' is not a folder.`, { path: shown });
  if (!before.isFile() && !before.isDirectory()) {
    // Never open a FIFO, device or socket: stat-only handle on the folder, the entry's own stats.
    const parent = await open(dirname(real), constants.O_RDONLY | constants.O_DIRECTORY);
    return { handle: parent, real, stats: before };
  }
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    (error) => {
      throw ioError(error, "open", shown);
    },
  );
  const stats = await handle.stat();
  if (stats.ino !== before.ino || stats.dev !== before.dev) {
    await handle.close();
    throw outside(shown, real, realRoot);
  }
  return { handle, real, stats };
}

/** Opens a verified regular file for reading through its path-only descriptor (same inode, cannot be swapped). */
export async function reopenForRead(file: PathHandle, shown: string): Promise<FileHandle> {
  if (!PROC_FD) return file.handle;
  const handle = await open(
    `/proc/self/fd/${file.handle.fd}`,
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
  ).catch((error) => {
    throw ioError(error, "read", shown);
  });
  const stats = await handle.stat();
  if (stats.ino !== file.stats.ino || stats.dev !== file.stats.dev) {
    await handle.close();
    throw new SkillgateError("FILE_IO_FAILED", `File ${shown} changed while it was opened; retry.`, {
      path: shown,
    });
  }
  return handle;
}

export async function closeAll(...handles: (FileHandle | PathHandle | undefined)[]): Promise<void> {
  const seen = new Set<FileHandle>();
  for (const item of handles) {
    const handle = item && "handle" in item ? item.handle : (item as FileHandle | undefined);
    if (!handle || seen.has(handle)) continue;
    seen.add(handle);
    await handle.close().catch(() => undefined);
  }
}

/** A single path component we may create or remove: not empty, not `.`/`..`, no separator. */
export function checkName(name: string, shown: string): void {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0"))
    throw new SkillgateError("INVALID_ARGS", `Path '${shown}' does not end in a file or folder name.`, {
      path: shown,
    });
}

export function kindOf(stats: Stats): "file" | "directory" | "symlink" | "fifo" | "socket" | "device" {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  return "device";
}
