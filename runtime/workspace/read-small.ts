// Reads of small state files (manifest, checkpoint, keys, marks): a regular file synchronously, anything else as before.
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

/**
 * readFile(path, "utf8") with the same errors. A regular file is read synchronously: it is a few KiB from the page
 * cache, read in microseconds, where the thread pool costs four round trips (open, stat, read, close), each a
 * wake-up and a turn of the event loop on a loaded machine. Anything else (a FIFO would block a synchronous read)
 * goes through the thread pool as before. The type is taken from the opened descriptor (opened non-blocking, so a
 * FIFO cannot block the open), never from a path checked before: a file swapped for a FIFO in between is not read.
 */
export async function readSmallFile(path: string): Promise<string> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (fstatSync(fd).isFile()) return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
  return readFile(path, "utf8");
}
