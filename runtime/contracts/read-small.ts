// Reads of small state and config files (manifest, checkpoint, keys, marks, config layers): regular files only, read synchronously.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";
import { isSkillgateError, SkillgateError } from "../errors.js";

/**
 * The most a state or config file may hold. The largest real one is the init manifest (~150 bytes a copied file: a
 * 100,000-file pack is ~15 MB); a file past this was planted, and reading it whole would stall the event loop.
 */
export const SMALL_FILE_LIMIT = 64 * 1024 * 1024;

/** What a path that is not a regular file or a folder is, in words. */
function specialKind(info: Stats): string {
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice()) return "character device";
  if (info.isBlockDevice()) return "block device";
  return "special file";
}

/** NOT_REGULAR_FILE for `path`, a `kind` (as specialKind names it) where a state or config file belongs. */
function notRegularFile(path: string, kind: string): SkillgateError {
  return new SkillgateError(
    "NOT_REGULAR_FILE",
    `${path} is a ${kind}, not a regular file: skillgate reads its state and config only from regular files (reading anything else could block or never end); fix: replace it with the regular file it should be, or remove it`,
    { path, kind },
  );
}

/** FILE_TOO_LARGE for a state or config file over SMALL_FILE_LIMIT. */
function tooLargeFile(path: string, size: number): SkillgateError {
  return new SkillgateError(
    "FILE_TOO_LARGE",
    `${path} is ${size} bytes, over the ${SMALL_FILE_LIMIT} bytes skillgate reads from a state or config file (none is near that size when skillgate wrote it); fix: replace it with the file it should be, or remove it`,
    { path, size, limit: SMALL_FILE_LIMIT },
  );
}

/**
 * Why readSmallFile refused a file, as a clause for a caller's own message ("it is a FIFO (named pipe), not a regular
 * file"), or null when `error` is not one of its refusals (an errno error, say).
 */
export function refusalReason(error: unknown): string | null {
  if (!isSkillgateError(error)) return null;
  if (error.code === "NOT_REGULAR_FILE") return `it is a ${error.details.kind}, not a regular file`;
  if (error.code === "FILE_TOO_LARGE")
    return `it is ${error.details.size} bytes, over the ${SMALL_FILE_LIMIT}-byte limit of a state or config file`;
  return null;
}

function openNonBlocking(path: string): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // open(2) refuses a socket with ENXIO: the stat only names what was refused, it decides nothing.
    if ((error as NodeJS.ErrnoException).code === "ENXIO") {
      const info = statSync(path, { throwIfNoEntry: false });
      if (info?.isSocket()) throw notRegularFile(path, specialKind(info));
    }
    throw error;
  }
}

/**
 * readFile(path, "utf8") of a regular file, read synchronously: a few KiB from the page cache, where the thread pool
 * costs four round trips (open, stat, read, close). A folder rejects with EISDIR as readFile does. Anything else is
 * refused (NOT_REGULAR_FILE): a FIFO blocks a read until someone writes it, /dev/zero never ends, and an agent with a
 * shell can plant either. The type is the opened descriptor's (opened non-blocking, so a FIFO cannot block the open),
 * never a path's checked before: a file swapped for a FIFO in between is not read. A regular file over
 * SMALL_FILE_LIMIT is refused (FILE_TOO_LARGE) before it is read.
 */
export async function readSmallFile(path: string): Promise<string> {
  const fd = openNonBlocking(path);
  let kind: string;
  try {
    const info = fstatSync(fd);
    if (info.isFile() && info.size > SMALL_FILE_LIMIT) throw tooLargeFile(path, info.size);
    if (info.isFile() || info.isDirectory()) return readFileSync(fd, "utf8");
    kind = specialKind(info);
  } finally {
    closeSync(fd);
  }
  throw notRegularFile(path, kind);
}
