// Keeps a passed bwrap probe on disk, keyed by bwrap's identity, so one-shot processes skip the two probe spawns.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { release } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../workspace/index.js";

const CACHE_FORMAT = 1;

/** What the probe's verdict depends on: the binary (path, inode, size, mtime), the kernel, who runs it. */
function identityOf(bwrap: string): string | null {
  try {
    const info = statSync(bwrap);
    return JSON.stringify([
      CACHE_FORMAT,
      bwrap,
      info.ino,
      info.size,
      info.mtimeMs,
      release(),
      process.getuid?.(),
    ]);
  } catch {
    return null;
  }
}

/**
 * True when a probe of this very bwrap passed with every optional feature. Only such a verdict is kept: a cached
 * "works" that no longer holds makes the run fail closed (bwrap errors out), while a kept "feature missing"
 * could drop a hardening option, so that case is probed every time. The file must be ours and not writable
 * by others. Synchronous (a stat and a read of a few bytes; through the thread pool, six round trips before every
 * one-shot run's spawn); opened non-blocking, so a FIFO put there is refused by the check, not waited on.
 */
export async function cachedProbePassed(bwrap: string, file: string): Promise<boolean> {
  const identity = identityOf(bwrap);
  if (identity === null) return false;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = fstatSync(fd);
      if (!info.isFile() || info.uid !== process.getuid?.() || (info.mode & 0o022) !== 0) return false;
      return readFileSync(fd, "utf8") === `${identity}\n`;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Records a full-feature pass (atomically; a failure to write only costs the next process a probe). */
export async function rememberProbePassed(bwrap: string, file: string): Promise<void> {
  const identity = identityOf(bwrap);
  if (identity === null) return;
  try {
    await mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${identity}\n`, { mode: 0o600 });
  } catch {
    // no disk cache this time
  }
}
