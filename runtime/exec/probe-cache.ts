// Keeps a passed bwrap probe on disk, keyed by bwrap's identity, so one-shot processes skip the two probe spawns.
import { mkdir, open, stat } from "node:fs/promises";
import { release } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../workspace/index.js";

const CACHE_FORMAT = 1;

/** What the probe's verdict depends on: the binary (path, inode, size, mtime), the kernel, who runs it. */
async function identityOf(bwrap: string): Promise<string | null> {
  try {
    const info = await stat(bwrap);
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
 * by others.
 */
export async function cachedProbePassed(bwrap: string, file: string): Promise<boolean> {
  const identity = await identityOf(bwrap);
  if (identity === null) return false;
  try {
    const handle = await open(file, "r");
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.uid !== process.getuid?.() || (info.mode & 0o022) !== 0) return false;
      return (await handle.readFile("utf8")) === `${identity}\n`;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Records a full-feature pass (atomically; a failure to write only costs the next process a probe). */
export async function rememberProbePassed(bwrap: string, file: string): Promise<void> {
  const identity = await identityOf(bwrap);
  if (identity === null) return;
  try {
    await mkdir(join(file, ".."), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, `${identity}\n`, { mode: 0o600 });
  } catch {
    // no disk cache this time
  }
}
