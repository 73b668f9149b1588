// The node launcher of a held sandbox (the .ts fast path): node boots while the sandbox waits; the run's entry is imported once the run is released.
import { createHash } from "node:crypto";
import { access } from "node:fs/promises";
import type { Socket } from "node:net";
import { join } from "node:path";
import { writeFileAtomic } from "../../workspace/index.js";

/**
 * Runs inside the sandbox as `node <launcher> <fd> <entry> ...args`. It says "r" on the socket `fd` once node is up,
 * waits for "g", closes the socket, puts process.argv back to what `node <entry> ...args` has and imports the entry.
 * Anything but "g" (the server closed its end: the sandbox was discarded) exits without importing anything.
 */
export const LAUNCHER_SOURCE = `// skillgate: node started ahead in a held sandbox; the run's entry is imported when the run is released.
import { closeSync, readSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
const fd = Number(process.argv[2]);
const entry = process.argv[3];
// The entry's first statement: done now, while the sandbox waits.
process.setSourceMapsEnabled(true);
writeSync(fd, "r");
const byte = Buffer.alloc(1);
let got = 0;
for (;;) {
  try {
    got = readSync(fd, byte, 0, 1, null);
    break;
  } catch (error) {
    if (error.code !== "EAGAIN") break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}
closeSync(fd);
if (got !== 1 || byte[0] !== 0x67) process.exit(70);
process.argv.splice(1, 3, entry);
await import(pathToFileURL(entry).href);
`;

/** Content-addressed, so a launcher of another version is never run by mistake. */
export const LAUNCHER_NAME = `launch-${createHash("sha256").update(LAUNCHER_SOURCE).digest("hex").slice(0, 16)}.mjs`;

const written = new Set<string>();

/** The launcher's path in `cacheDir` (the fast path's cache, bound read-only into the sandbox), written once. */
export async function ensureLauncher(cacheDir: string): Promise<string> {
  const path = join(cacheDir, LAUNCHER_NAME);
  if (written.has(path)) return path;
  const present = await access(path).then(
    () => true,
    () => false,
  );
  if (!present) await writeFileAtomic(path, LAUNCHER_SOURCE, { mode: 0o444 });
  written.add(path);
  return path;
}

/**
 * The argv that starts `launcher` in place of `command` at the end of the sandbox argv `argv`
 * ([node, entry, ...args] → [node, launcher, fd, entry, ...args]); null when argv does not end with command.
 */
export function launcherArgv(
  argv: readonly string[],
  command: readonly string[],
  launcher: string,
  fd: number,
): string[] | null {
  const start = argv.length - command.length;
  const [runner, ...rest] = command;
  if (runner === undefined || rest.length === 0 || start < 0) return null;
  if (!command.every((part, index) => argv[start + index] === part)) return null;
  return [...argv.slice(0, start), runner, launcher, String(fd), ...rest];
}

/** Resolves once the launcher (or the Python hook) said it is up; rejects when the socket closes or the sandbox exits first. */
export function launcherUp(socket: Socket, exited: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => () =>
      reject(new Error(`the launcher ${why} before the interpreter was up`));
    socket.once("data", (chunk: Buffer) =>
      chunk.toString("latin1").startsWith("r") ? resolve() : fail("answered something else")(),
    );
    socket.once("close", fail("closed its socket"));
    void exited.then(fail("exited"));
  });
}

/** Releases the run: the launcher imports the entry. */
export function releaseLauncher(socket: Socket): void {
  socket.end("g");
}
