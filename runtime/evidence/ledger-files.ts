// The ledger's bytes on disk: ranged reads, synced appends, file identity for the cache, and the signed checkpoint.
import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname } from "node:path";
import { readSmallFile, refusalReason } from "../workspace/index.js";
import { canonicalJson } from "./canonical.js";
import type { Head } from "./fold.js";
import { GENESIS_HASH, parseLine } from "./record.js";
import { type LedgerSigner, verifySignature } from "./signer.js";
import type { EvidenceState } from "./state.js";

const ANCHOR_FIRST_WINDOW = 16 * 1024;
const ANCHOR_MAX_WINDOW = 4 * 1024 * 1024;

export interface Checkpoint {
  version: 2;
  ledger: Head;
  state: EvidenceState;
  sig: string;
}

/**
 * The file's inode, size and times, or "missing". Synchronous (a stat takes microseconds; through the thread pool it
 * costs a wake-up and a turn of the event loop): called inside the ledger's lock hold, where every turn given away
 * to other work (a run's fork, another call's parsing) lengthens the hold every waiting caller sits out.
 */
export function fileIdentity(path: string): string {
  try {
    const info = statSync(path, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return "missing";
  }
}

export function zeroHead(): Head {
  return { offset: 0, seq: 0, hash: GENESIS_HASH };
}

export function checkpointMessage(head: Head, state: EvidenceState): string {
  return `skillgate-checkpoint:${canonicalJson({ ledger: head, state })}`;
}

export async function readCheckpoint(progress: string, warnings: string[]): Promise<Checkpoint | null> {
  let text: string;
  try {
    text = await readSmallFile(progress);
  } catch (error) {
    // Planted (a FIFO, a huge file): like a forged checkpoint, said and skipped; the next commit renames a file over it.
    const refused = refusalReason(error);
    if (refused !== null)
      warnings.push(
        `the progress checkpoint ${progress} was not read: ${refused}; state was rebuilt from the signed ledger`,
      );
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Checkpoint;
    const key = parsed?.state?.identity?.publicKey;
    if (parsed?.version === 2 && parsed.ledger && typeof key === "string" && typeof parsed.sig === "string") {
      if (verifySignature(key, checkpointMessage(parsed.ledger, parsed.state), parsed.sig)) return parsed;
    }
  } catch {
    // an unreadable checkpoint is treated like a forged one
  }
  warnings.push(
    `the progress checkpoint ${progress} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
  );
  return null;
}

/** Does the record ending at the checkpoint's offset still carry the checkpoint's seq and hash? */
export async function anchorMatches(ledger: string, head: Head): Promise<boolean> {
  if (head.offset === 0) return false;
  let window = ANCHOR_FIRST_WINDOW;
  let bytes: Buffer;
  let previousNewline: number;
  for (;;) {
    const from = Math.max(0, head.offset - window);
    bytes = await readRange(ledger, from, head.offset);
    if (bytes[bytes.length - 1] !== 10) return false;
    previousNewline = bytes.lastIndexOf(10, bytes.length - 2);
    if (previousNewline !== -1 || from === 0) break;
    if (window >= ANCHOR_MAX_WINDOW) return false;
    window *= 4;
  }
  const parsed = parseLine(bytes.subarray(previousNewline + 1, bytes.length - 1).toString("utf8"));
  return parsed.ok && parsed.record.hash === head.hash && parsed.record.seq === head.seq;
}

/** The signed checkpoint file's bytes for `head` and `state`. */
export function checkpointBytes(signer: LedgerSigner, head: Head, state: EvidenceState): string {
  const checkpoint: Checkpoint = {
    version: 2,
    ledger: head,
    state,
    sig: signer.sign(checkpointMessage(head, state)),
  };
  return `${JSON.stringify(checkpoint)}\n`;
}

/**
 * Bytes [from, to) of the ledger, which the caller found to be a non-empty regular file. Synchronous: a load reads
 * three ranges, and each read through the thread pool costs three round trips (open, read, close).
 */
export async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const length = Math.max(0, to - from);
  const buffer = Buffer.alloc(length);
  if (length === 0) return buffer;
  const fd = openSync(file, "r");
  try {
    let read = 0;
    while (read < length) {
      const bytesRead = readSync(fd, buffer, read, length - read, from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends without fsync (a deferred-durability commit, see ledger-commit.ts): synchronous calls, since a write into
 * the page cache takes microseconds and three thread-pool round trips cost milliseconds on a loaded machine.
 */
export function appendUnsynced(file: string, text: string): void {
  const fd = openSync(file, "a");
  try {
    const bytes = Buffer.from(text);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
}

/** fsyncs a file written earlier (by this process or another: fsync makes every written byte of the file durable). */
export async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Appends and fsyncs; a file the append created also gets its folder synced, so the new entry survives a crash. */
export async function appendSynced(file: string, text: string, created = false): Promise<void> {
  const handle = await open(file, "a");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (created) {
    const folder = await open(dirname(file), "r").catch(() => null);
    await folder
      ?.sync()
      .catch(() => undefined)
      .finally(() => folder.close());
  }
}
