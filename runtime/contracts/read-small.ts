// Reads of small state and config files (manifest, checkpoint, keys, marks, config layers): regular files only, read synchronously.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";
import { SkillgateError } from "../errors.js";

/** What a path that is not a regular file or a folder is, in words. */
function specialKind(info: Stats): string {
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice()) return "character device";
  if (info.isBlockDevice()) return "block device";
  return "special file";
}

/** NOT_REGULAR_FILE for `path`, a `kind` (as specialKind names it) where a state or config file belongs. */
export function notRegularFile(path: string, kind: string): SkillgateError {
  return new SkillgateError(
    "NOT_REGULAR_FILE",
    `${path} is a ${kind}, not a regular file: skillgate reads its state and config only from regular files (reading anything else could block or never end); fix: replace it with the regular file it should be, or remove it`,
    { path, kind },
  );
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
 * never a path's checked before: a file swapped for a FIFO in between is not read.
 */
export async function readSmallFile(path: string): Promise<string> {
  const fd = openNonBlocking(path);
  let kind: string;
  try {
    const info = fstatSync(fd);
    if (info.isFile() || info.isDirectory()) return readFileSync(fd, "utf8");
    kind = specialKind(info);
  } finally {
    closeSync(fd);
  }
  throw notRegularFile(path, kind);
}
