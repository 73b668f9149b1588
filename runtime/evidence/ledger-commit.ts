// Writing ledger records: seal drafts onto a loaded state, then one synced append, one head-mark move, a checkpoint when due.
//
// Deferred durability (a run receipt and its use record only): the records are written into the file under the lock
// and the caller is answered without waiting for the fsync; the head mark and the checkpoint stay where they were
// and move with the next synced commit (the ledger's background flush, or any other transaction), which fsyncs the
// file first. So neither ever points past durable bytes, and a crash can only cut the ledger back to a state it
// really had (docs/evidence.md, "Deferred durability of run receipts").
//
// Why records are sealed first and written later: a group commit seals the records of every waiting transaction in
// order (each transaction's body sees the records of the ones before it) and then makes all of them durable with a
// single append and fsync, under one lock acquisition. The order on disk is always: records (fsynced), then the head
// mark, then the checkpoint (see head-mark.ts for why a crash in between never reads as a rollback).
import { statSync } from "node:fs";
import { truncate } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { ioError, type StagedFile } from "../workspace/index.js";
import { applyRecord } from "./apply.js";
import type { Head } from "./fold.js";
import type { HeadMark } from "./head-mark.js";
import type { LedgerKeys } from "./keys.js";
import { appendSynced, appendUnsynced, checkpointBytes, syncFile } from "./ledger-files.js";
import type { LoadedLedger } from "./ledger-load.js";
import { type LedgerRecord, sealRecord, type UnsignedRecord } from "./record.js";

export interface CommitDeps {
  paths: WorkspacePaths;
  keys: LedgerKeys;
  now: () => Date;
  writeAtomic: (path: string, data: string) => Promise<void>;
  /** Two-step atomic write for the checkpoint (overlapped with the append's sync); without it, writeAtomic after. */
  stageAtomic?: (path: string, data: string) => Promise<StagedFile>;
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

type Staged = { file: StagedFile } | { error: unknown } | null;

/** Kinds a deferred commit may leave unsynced: evidence whose loss only takes evidence away (never the gate's records). */
const DEFERRABLE = new Set(["run", "use"]);

export interface WriteOptions {
  /** false: a deferred commit (see the header); honoured only for run/use records appended to an existing ledger. */
  sync?: boolean;
}

/**
 * Makes the sealed records durable (one append + fsync; undone when it fails, so no torn record stays), then moves
 * the head mark and writes the checkpoint when due. Their new bytes are written and synced while the append syncs;
 * they are renamed into place only after it, so neither ever points past durable records. Throws only when the
 * records themselves were not recorded.
 */
export async function writeSealed(
  deps: CommitDeps,
  batch: SealedBatch,
  options: WriteOptions = {},
): Promise<WriteOutcome> {
  const { loaded, records } = batch;
  const snapshot = loaded.snapshot;
  const ends: number[] = [];
  const warnings: string[] = [];
  const prefix = loaded.needsNewline ? "\n" : "";
  const lines = records.map((record) => JSON.stringify(record));
  const text = `${prefix}${lines.join("\n")}\n`;
  // Synchronous: a stat takes microseconds, a thread-pool trip gives the event loop away while the lock is held.
  const before =
    records.length === 0
      ? snapshot.head.offset
      : (statSync(deps.paths.ledger, { throwIfNoEntry: false })?.size ?? 0);
  let end = before + (records.length === 0 ? 0 : Buffer.byteLength(prefix));
  for (const line of lines) {
    end += Buffer.byteLength(line) + 1;
    ends.push(end);
  }
  const head: Head = { ...snapshot.head, offset: end };
  const deferred =
    options.sync === false &&
    records.length > 0 &&
    before > 0 &&
    !loaded.dirty &&
    records.every((record) => DEFERRABLE.has(record.kind));
  if (deferred) return writeDeferred(deps, batch, text, before, head, ends);
  const identity = snapshot.state.identity;
  const markDue = (records.length > 0 || loaded.markBehind) && identity !== null && head.seq > 0;
  const advanced = records.some(
    (r) => (r.kind === "complete" && r.data.passed === true) || r.kind === "bind",
  );
  const dueNow = checkpointDue(loaded, head, deps.checkpointEvery, advanced);
  const mark = markDue && identity ? headMark(deps, identity.initId, head) : null;
  const stagedMark = mark && deps.keys.stageHead ? stage(deps.keys.stageHead(mark)) : Promise.resolve(null);
  const checkpointText =
    dueNow && loaded.signer ? checkpointBytes(loaded.signer, head, snapshot.state) : null;
  const stagedCheckpoint =
    checkpointText !== null && deps.stageAtomic
      ? stage(deps.stageAtomic(deps.paths.progress, checkpointText))
      : Promise.resolve(null);
  if (records.length > 0) {
    try {
      // Synced before the head mark moves: the mark must never get ahead of durable records.
      await appendSynced(deps.paths.ledger, text, before === 0);
    } catch (error) {
      // Undo a partial append so the ledger never holds a torn record; the evidence was not recorded.
      await truncate(deps.paths.ledger, before).catch(() => undefined);
      await Promise.all([abort(stagedMark), abort(stagedCheckpoint)]);
      throw ioError(error, "append to the evidence ledger", deps.paths.ledger);
    }
    loaded.needsNewline = false;
  } else if (loaded.unsynced || loaded.markBehind) {
    try {
      // Earlier deferred records become durable before the mark or a checkpoint may name them. A mark found behind
      // may lag records another process deferred (its flush not done yet): they are synced here, not trusted unsynced.
      await syncFile(deps.paths.ledger);
    } catch (error) {
      await Promise.all([abort(stagedMark), abort(stagedCheckpoint)]);
      throw ioError(error, "sync the evidence ledger", deps.paths.ledger);
    }
  }
  loaded.unsynced = false;
  snapshot.head = head;
  let wrote = records.length > 0;
  if (mark) {
    const problem = await place(await stagedMark, () => deps.keys.writeHead(mark)).then(
      () => null,
      (error: unknown) =>
        `the ledger head ${deps.keys.headFile} could not be written (${ioError(error, "write", deps.keys.headFile).code}); evidence is recorded, but a restored older ledger copy is not detected until it can be written`,
    );
    if (problem) warnings.push(problem);
    else loaded.markBehind = false;
  }
  if (checkpointText !== null) {
    wrote = true;
    try {
      await place(await stagedCheckpoint, () => deps.writeAtomic(deps.paths.progress, checkpointText));
      loaded.checkpoint = { ...head };
      loaded.dirty = false;
    } catch (error) {
      // The records are safely appended; without a checkpoint loads only verify a longer tail.
      warnings.push(
        `the progress checkpoint ${deps.paths.progress} could not be written (${ioError(error, "write", deps.paths.progress).code}); evidence is recorded in the ledger, loads are slower until it can be written`,
      );
    }
  } else await abort(stagedCheckpoint);
  snapshot.warnings.push(...warnings);
  return { ends, wrote, warnings };
}

/** Is a new checkpoint due at `head` (records or bytes since the last one, a stage advanced, a repaired load)? */
export function checkpointDue(loaded: LoadedLedger, head: Head, every: number, advanced: boolean): boolean {
  return (
    loaded.signer !== null &&
    (loaded.dirty ||
      (loaded.checkpoint.seq === 0 && head.seq > 0) ||
      advanced ||
      head.seq - loaded.checkpoint.seq >= every ||
      head.offset - loaded.checkpoint.offset >= CHECKPOINT_EVERY_BYTES)
  );
}

/** The deferred write: the records into the file (undone when that fails), no fsync, mark and checkpoint left behind. */
function writeDeferred(
  deps: CommitDeps,
  batch: SealedBatch,
  text: string,
  before: number,
  head: Head,
  ends: number[],
): Promise<WriteOutcome> {
  const { loaded } = batch;
  return (async () => {
    try {
      appendUnsynced(deps.paths.ledger, text);
    } catch (error) {
      await truncate(deps.paths.ledger, before).catch(() => undefined);
      throw ioError(error, "append to the evidence ledger", deps.paths.ledger);
    }
    loaded.needsNewline = false;
    loaded.unsynced = true;
    // The next synced commit moves the mark (and writes the checkpoint when due), after its fsync.
    loaded.markBehind = true;
    loaded.snapshot.head = head;
    return { ends, wrote: true, warnings: [] };
  })();
}

function headMark(deps: Pick<CommitDeps, "now">, initId: string, head: Head): HeadMark {
  return { version: 1, initId, seq: head.seq, hash: head.hash, updatedAt: deps.now().toISOString() };
}

function stage(staging: Promise<StagedFile>): Promise<Staged> {
  return staging.then(
    (file) => ({ file }),
    (error: unknown) => ({ error }),
  );
}

async function abort(staged: Promise<Staged>): Promise<void> {
  const done = await staged;
  if (done && "file" in done) await done.file.abort();
}

/** Renames a staged file into place; without one (no staging, or it failed) writes the file the one-step way. */
async function place(staged: Staged, writeNow: () => Promise<void>): Promise<void> {
  if (staged && "file" in staged) return staged.file.commit();
  return writeNow();
}
