// Reads of small state files (manifest, checkpoint, keys, marks): a regular file synchronously, anything else as before.
import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";

/**
 * readFile(path, "utf8") with the same errors. A regular file is read synchronously: it is a few KiB from the page
 * cache, read in microseconds, where the thread pool costs four round trips (open, stat, read, close), each a
 * wake-up and a turn of the event loop on a loaded machine. Anything else (a FIFO would block a synchronous read)
 * goes through the thread pool as before.
 */
export async function readSmallFile(path: string): Promise<string> {
  return statSync(path).isFile() ? readFileSync(path, "utf8") : readFile(path, "utf8");
}
