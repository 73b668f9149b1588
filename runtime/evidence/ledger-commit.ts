// Writing ledger records: seal drafts onto a loaded state, then one synced append, one head-mark move, a checkpoint when due.
//
// Why records are sealed first and written later: a group commit seals the records of every waiting transaction in
// order (each transaction's body sees the records of the ones before it) and then makes all of them durable with a
// single append and fsync, under one lock acquisition. The order on disk is always: records (fsynced), then the head
// mark, then the checkpoint (see head-mark.ts for why a crash in between never reads as a rollback).
import { stat, truncate } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { ioError } from "../workspace/index.js";
import { applyRecord } from "./apply.js";
import type { Head } from "./fold.js";
import type { LedgerKeys } from "./keys.js";
import { appendSynced, writeCheckpoint } from "./ledger-files.js";
import type { LoadedLedger } from "./ledger-load.js";
import { type LedgerRecord, sealRecord, type UnsignedRecord } from "./record.js";

export interface CommitDeps {
  paths: WorkspacePaths;
  keys: LedgerKeys;
  now: () => Date;
  writeAtomic: (path: string, data: string) => Promise<void>;
  /** Rewrite the checkpoint once this many records accumulated after it. */
  checkpointEvery: number;
}

const CHECKPOINT_EVERY_BYTES = 64 * 1024;

/** Records sealed onto a loaded ledger (applied to its state, chained, signed), not written yet. */
export class SealedBatch {
  readonly records: LedgerRecord[] = [];

  constructor(
    readonly loaded: LoadedLedger,
    private readonly deps: Pick<CommitDeps, "keys" | "now">,
  ) {}

  /** Seals `drafts` after everything sealed so far and applies them to the loaded state; returns them. */
  async seal(drafts: UnsignedRecord[]): Promise<LedgerRecord[]> {
    const snapshot = this.loaded.snapshot;
    const sealed: LedgerRecord[] = [];
    const time = this.deps.now().toISOString();
    for (const draft of drafts) {
      const signer = this.loaded.signer;
      if (!signer) throw new SkillgateError("INTERNAL", "no signer for the ledger", {});
      const record = sealRecord(draft, snapshot.head, time, signer);
      sealed.push(record);
      applyRecord(snapshot.state, record);
      snapshot.head = { offset: snapshot.head.offset, seq: record.seq, hash: record.hash };
      if (record.kind === "adopt" || record.kind === "genesis")
        this.loaded.signer = await this.deps.keys.signerFor(
          String(record.data.workspace),
          String(record.data.initId),
        );
    }
    this.records.push(...sealed);
    return sealed;
  }
}

export interface WriteOutcome {
  /** Byte offset at the end of each written record, in order. */
  ends: number[];
  /** The ledger or the checkpoint changed (the head mark lives outside the workspace and is not part of the file identity). */
  wrote: boolean;
  /** Problems that left the records recorded but the mark or checkpoint behind (also pushed to the snapshot). */
  warnings: string[];
}

/**
 * Makes the sealed records durable (one append + fsync; undone when it fails, so no torn record stays), then moves
 * the head mark and writes the checkpoint when due. Throws only when the records themselves were not recorded.
 */
export async function writeSealed(deps: CommitDeps, batch: SealedBatch): Promise<WriteOutcome> {
  const { loaded, records } = batch;
  const snapshot = loaded.snapshot;
  const ends: number[] = [];
  const warnings: string[] = [];
  if (records.length > 0) {
    const prefix = loaded.needsNewline ? "\n" : "";
    const lines = records.map((record) => JSON.stringify(record));
    const text = `${prefix}${lines.join("\n")}\n`;
    const before = await stat(deps.paths.ledger).then(
      (s) => s.size,
      () => 0,
    );
    try {
      // Synced before the head mark moves: the mark must never get ahead of durable records.
      await appendSynced(deps.paths.ledger, text);
    } catch (error) {
      // Undo a partial append so the ledger never holds a torn record; the evidence was not recorded.
      await truncate(deps.paths.ledger, before).catch(() => undefined);
      throw ioError(error, "append to the evidence ledger", deps.paths.ledger);
    }
    let end = before + Buffer.byteLength(prefix);
    for (const line of lines) {
      end += Buffer.byteLength(line) + 1;
      ends.push(end);
    }
    snapshot.head = { ...snapshot.head, offset: end };
    loaded.needsNewline = false;
  }
  const head = snapshot.head;
  let wrote = records.length > 0;
  if (records.length > 0 || loaded.markBehind) {
    const problem = await moveMark(deps, loaded, head);
    if (problem) warnings.push(problem);
  }
  const behind = head.seq - loaded.checkpoint.seq;
  const behindBytes = head.offset - loaded.checkpoint.offset;
  const advanced = records.some(
    (r) => (r.kind === "complete" && r.data.passed === true) || r.kind === "bind",
  );
  const first = loaded.checkpoint.seq === 0 && head.seq > 0;
  const due =
    loaded.dirty ||
    first ||
    advanced ||
    behind >= deps.checkpointEvery ||
    behindBytes >= CHECKPOINT_EVERY_BYTES;
  if (loaded.signer && due) {
    wrote = true;
    try {
      await writeCheckpoint(deps.writeAtomic, deps.paths.progress, loaded.signer, head, snapshot.state);
      loaded.checkpoint = { ...head };
      loaded.dirty = false;
    } catch (error) {
      // The records are safely appended; without a checkpoint loads only verify a longer tail.
      warnings.push(
        `the progress checkpoint ${deps.paths.progress} could not be written (${ioError(error, "write", deps.paths.progress).code}); evidence is recorded in the ledger, loads are slower until it can be written`,
      );
    }
  }
  snapshot.warnings.push(...warnings);
  return { ends, wrote, warnings };
}

/** Moves the head mark outside the workspace to `head` (after the records are durable, under the lock); a warning or null. */
async function moveMark(deps: CommitDeps, loaded: LoadedLedger, head: Head): Promise<string | null> {
  const identity = loaded.snapshot.state.identity;
  if (!identity || head.seq === 0) return null;
  try {
    await deps.keys.writeHead({
      version: 1,
      initId: identity.initId,
      seq: head.seq,
      hash: head.hash,
      updatedAt: deps.now().toISOString(),
    });
    loaded.markBehind = false;
    return null;
  } catch (error) {
    return `the ledger head ${deps.keys.headFile} could not be written (${ioError(error, "write", deps.keys.headFile).code}); evidence is recorded, but a restored older ledger copy is not detected until it can be written`;
  }
}
