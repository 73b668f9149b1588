// The one safe way to read workspace files: no symlink escape (checked on the opened descriptor), regular files only, capped.
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { SkillgateError } from "../errors.js";
import { nodeWalkFs, type VisitResult, type WalkEntry, type WalkFs, walkTree } from "../walk/index.js";
import {
  at,
  closeAll,
  ioError,
  kindOf,
  openVerified,
  type PathHandle,
  realRootOf,
  relativeTo,
  reopenForRead,
  resolveLexical,
} from "./safe-path.js";

/** Names only: each entry is opened by descriptor anyway, which gives its kind. */
const NAMES_ONLY: WalkFs = { ...nodeWalkFs, readdir: (path) => readdir(path) };

/** Default cap of one read: files larger than this are refused before any byte is read. */
export const SAFE_READ_MAX_BYTES = 10 * 1024 * 1024;

export type EntryKind = "file" | "directory" | "symlink" | "fifo" | "socket" | "device";

export interface SafeReadOptions {
  /** Refuse files over this many bytes (default 10 MiB), checked before and during the read. */
  maxBytes?: number;
  /** Accept an absolute path when it lies inside the workspace (operator config such as checker args). */
  allowAbsolute?: boolean;
}

export interface SafeReadResult {
  bytes: Buffer;
  /** sha256 (hex) of exactly the bytes returned. */
  sha256: string;
  size: number;
  /** Workspace-relative real path of the file that was read ("/"-separated). */
  path: string;
  /** Absolute real path of the file that was read. */
  realPath: string;
}

export interface SafeTextResult extends SafeReadResult {
  text: string;
  /** Lines as Python's readlines() gives them: each keeps its "\n", no empty last line. */
  lines: string[];
}

export interface SafeStat {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  mode: number;
  path: string;
  realPath: string;
}

export interface SafeListOptions {
  /** Descend into sub-folders (never through symlinks). */
  recursive?: boolean;
  /** Stop after this many entries (default 5000) and set `truncated`. */
  maxEntries?: number;
  /** Deepest level listed when recursive (default 20; 1 = the folder's own entries). */
  maxDepth?: number;
  allowAbsolute?: boolean;
}

export interface SafeListEntry {
  /** Path relative to the listed folder, "/"-separated. */
  path: string;
  kind: EntryKind;
  size: number;
}

export interface SafeListResult {
  path: string;
  entries: SafeListEntry[];
  truncated: boolean;
}

/** Opens `path` (relative to `root`) and verifies it is a regular file inside the workspace. */
async function openRegular(
  root: string,
  path: string,
  allowAbsolute: boolean,
): Promise<[PathHandle, string]> {
  const realRoot = await realRootOf(root);
  const { shown, lexical } = resolveLexical(root, path, allowAbsolute);
  const file = await openVerified(realRoot, lexical, shown);
  if (!file.stats.isFile()) {
    await closeAll(file);
    const kind = kindOf(file.stats);
    throw new SkillgateError(
      "NOT_REGULAR_FILE",
      `Path '${shown}' is a ${kind === "directory" ? "folder" : kind}, not a regular file.`,
      { path: shown, kind },
    );
  }
  return [file, realRoot];
}

/** Reads a whole regular file inside the workspace; a FIFO, device or socket is refused without being opened. */
export async function readWorkspaceFile(
  root: string,
  path: string,
  options: SafeReadOptions = {},
): Promise<SafeReadResult> {
  const maxBytes = options.maxBytes ?? SAFE_READ_MAX_BYTES;
  const [file, realRoot] = await openRegular(root, path, options.allowAbsolute ?? false);
  let reader: Awaited<ReturnType<typeof reopenForRead>> | undefined;
  try {
    if (file.stats.size > maxBytes) throw tooLarge(path, file.stats.size, maxBytes);
    reader = await reopenForRead(file, path);
    const chunks: Buffer[] = [];
    let total = 0;
    // Read to EOF but never past the cap: a file growing under us is refused, not truncated silently.
    while (true) {
      const chunk = Buffer.alloc(Math.min(1 << 20, maxBytes + 1 - total));
      const { bytesRead } = await reader.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(path, total, maxBytes);
    }
    const bytes = Buffer.concat(chunks, total);
    return {
      bytes,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: total,
      path: relativeTo(realRoot, file.real),
      realPath: file.real,
    };
  } catch (error) {
    throw ioError(error, "read", path);
  } finally {
    await closeAll(reader, file);
  }
}

/** The first `maxBytes` bytes of a regular file inside the workspace (to sniff text vs binary without reading it all). */
export async function readWorkspaceFilePrefix(
  root: string,
  path: string,
  maxBytes: number,
  options: { allowAbsolute?: boolean } = {},
): Promise<{ bytes: Buffer; size: number; realPath: string }> {
  const [file] = await openRegular(root, path, options.allowAbsolute ?? false);
  let reader: Awaited<ReturnType<typeof reopenForRead>> | undefined;
  try {
    reader = await reopenForRead(file, path);
    const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, file.stats.size)));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await reader.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), size: file.stats.size, realPath: file.real };
  } catch (error) {
    throw ioError(error, "read", path);
  } finally {
    await closeAll(reader, file);
  }
}

/** Reads a UTF-8 text file (no NUL bytes, strict decoding) and splits it into lines. */
export async function readWorkspaceText(
  root: string,
  path: string,
  options: SafeReadOptions = {},
): Promise<SafeTextResult> {
  const read = await readWorkspaceFile(root, path, options);
  let text: string;
  try {
    if (read.bytes.includes(0)) throw new Error("NUL byte");
    text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
  } catch {
    throw new SkillgateError("NOT_TEXT", `File ${path} is not valid UTF-8 text.`, { path });
  }
  return { ...read, text, lines: text.length === 0 ? [] : text.split(/(?<=\n)/) };
}

/** Facts about one entry without following a final symlink; FILE_NOT_FOUND when it does not exist. */
export async function statWorkspacePath(
  root: string,
  path: string,
  options: { follow?: boolean; allowAbsolute?: boolean } = {},
): Promise<SafeStat> {
  const realRoot = await realRootOf(root);
  const { shown, lexical } = resolveLexical(root, path, options.allowAbsolute ?? false);
  const entry = await openVerified(realRoot, lexical, shown, { follow: options.follow ?? false });
  await closeAll(entry);
  return {
    kind: kindOf(entry.stats),
    size: entry.stats.size,
    mtimeMs: entry.stats.mtimeMs,
    mode: entry.stats.mode & 0o7777,
    path: relativeTo(realRoot, entry.real),
    realPath: entry.real,
  };
}

/** Like statWorkspacePath, but null when the entry does not exist. */
export async function statWorkspacePathIfExists(
  root: string,
  path: string,
  options: { follow?: boolean; allowAbsolute?: boolean } = {},
): Promise<SafeStat | null> {
  try {
    return await statWorkspacePath(root, path, options);
  } catch (error) {
    if (error instanceof SkillgateError && error.code === "FILE_NOT_FOUND") return null;
    throw error;
  }
}

/** Lists a folder inside the workspace, sorted by name; sub-folders are entered by descriptor, never via a symlink. */
export async function listWorkspaceDir(
  root: string,
  path: string,
  options: SafeListOptions = {},
): Promise<SafeListResult> {
  const maxEntries = options.maxEntries ?? 5000;
  const maxDepth = options.recursive ? (options.maxDepth ?? 20) : 1;
  const realRoot = await realRootOf(root);
  const { shown, lexical } = resolveLexical(root, path, options.allowAbsolute ?? false);
  const top = await openVerified(realRoot, lexical, shown, { directory: true });
  const entries: SafeListEntry[] = [];
  let truncated = false;
  // Sub-folders are listed by descriptor (at(child)): a folder swapped for a symlink after the listing is not followed.
  const visit = async (entry: WalkEntry): Promise<VisitResult> => {
    // Bounded here, not by the walker: a name that vanished before it was opened does not count.
    if (entries.length >= maxEntries) {
      truncated = true;
      return false;
    }
    const child = await openVerified(realRoot, entry.path, `${shown}/${entry.rel}`, { follow: false }).catch(
      () => null,
    );
    if (!child) return false; // vanished between readdir and open
    entries.push({ path: entry.rel, kind: kindOf(child.stats), size: child.stats.size });
    if (child.stats.isDirectory()) return { into: at(child), after: () => closeAll(child) };
    await closeAll(child);
    return false;
  };
  try {
    await walkTree(at(top), { fs: NAMES_ONLY, maxDepth: maxDepth - 1 }, visit);
  } catch (error) {
    throw ioError(error, "list", shown);
  } finally {
    await closeAll(top);
  }
  return { path: relativeTo(realRoot, top.real), entries, truncated };
}

function tooLarge(shown: string, size: number, maxBytes: number): SkillgateError {
  return new SkillgateError(
    "FILE_TOO_LARGE",
    `File ${shown} is ${size} bytes, over the ${maxBytes}-byte limit. Read a smaller file.`,
    { path: shown, size, limit: maxBytes },
  );
}
