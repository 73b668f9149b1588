// Keeps a passed bwrap probe on disk, keyed by bwrap's identity, so one-shot processes skip the two probe spawns.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from "node:fs";
import { release } from "node:os";
import { join } from "node:path";

const CACHE_FORMAT = 1;

/** What the probe's verdict depends on: the binary (path, inode, size, mtime), the kernel, who runs it. */
function identityOf(bwrap: string): string | null {
  try {
    const stat = statSync(bwrap);
    return JSON.stringify([
      CACHE_FORMAT,
      bwrap,
      stat.ino,
      stat.size,
      stat.mtimeMs,
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
 * by others.
 */
export function cachedProbePassed(bwrap: string, file: string): boolean {
  const identity = identityOf(bwrap);
  if (identity === null) return false;
  try {
    const fd = openSync(file, "r");
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) return false;
      return readFileSync(fd, "utf8") === `${identity}\n`;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Records a full-feature pass (atomically; a failure to write only costs the next process a probe). */
export function rememberProbePassed(bwrap: string, file: string): void {
  const identity = identityOf(bwrap);
  if (identity === null) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    const fd = openSync(temp, "wx", 0o600);
    try {
      writeSync(fd, `${identity}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch {
    // no disk cache this time
  }
}
