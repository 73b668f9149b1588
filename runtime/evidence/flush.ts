// Makes deferred records durable with the slow work outside the workspace lock: fsync, new head mark and checkpoint bytes first, only their renames under it.
//
// Why this is safe (docs/evidence.md, "Deferred durability of run receipts"): the head mark and the checkpoint must
// never name a record that is not durable. Here they name head H, the last record this process had written when the
// flush began; the fsync (of every byte written to the file so far, by anyone) finishes before the lock is taken,
// and the files are renamed into place only under the lock, only when the ledger is still the one this process
// wrote (nobody else appended or rewrote it; later appends of this process may follow H, and H stays in the chain),
// and only forward: a mark already at or past H (another process's synced commit) is left alone. Anything else
// aborts the staged files and the caller falls back to a synced commit under the lock, which loads and checks all.
import type { WorkspacePaths } from "../contracts/index.js";
import { outsideHeldLocks, type StagedFile } from "../workspace/index.js";
import type { Head } from "./fold.js";
import type { HeadMark } from "./head-mark.js";
import type { LedgerKeys } from "./keys.js";
import { checkpointDue } from "./ledger-commit.js";
import { checkpointBytes, syncFile } from "./ledger-files.js";
import type { LoadedLedger } from "./ledger-load.js";

export interface FlushHost {
  paths: WorkspacePaths;
  keys: LedgerKeys;
  now: () => Date;
  checkpointEvery: number;
  stageAtomic?: (path: string, data: string) => Promise<StagedFile>;
  /** Runs fn holding the workspace lock (after any commit of this process under way). */
  lock<T>(fn: () => Promise<T>): Promise<T>;
  /** This process's state as it last wrote it, when the files are still exactly as it left them; else null. */
  cached(): LoadedLedger | null;
  /** Called under the lock once the cached state changed in place (flags, checkpoint): key it by the files as they are now. */
  placed(loaded: LoadedLedger): void;
}

/** What an outside-the-lock flush did: `done` false means nothing was placed and a synced commit must do it. */
export type FlushOutcome = { done: false } | { done: true; caughtUp: boolean };

/** Flushes this process's unsynced appends; never throws (a failure is `done: false`, for the fallback to report). */
export async function flushOutsideLock(host: FlushHost): Promise<FlushOutcome> {
  const loaded = host.cached();
  const identity = loaded?.snapshot.state.identity;
  if (!loaded?.unsynced || !loaded.signer || !identity || !host.keys.stageHead || !host.stageAtomic)
    return { done: false };
  const head: Head = { ...loaded.snapshot.head };
  // Signed now, from the state at H, before any later append of this process changes it.
  const checkpoint = checkpointDue(loaded, head, host.checkpointEvery, false)
    ? checkpointBytes(loaded.signer, head, loaded.snapshot.state)
    : null;
  const mark: HeadMark = {
    version: 1,
    initId: identity.initId,
    seq: head.seq,
    hash: head.hash,
    updatedAt: host.now().toISOString(),
  };
  const staged = await Promise.allSettled([
    syncFile(host.paths.ledger),
    host.keys.stageHead(mark),
    checkpoint === null ? Promise.resolve(null) : host.stageAtomic(host.paths.progress, checkpoint),
  ]);
  const [synced, markFile, checkpointFile] = staged;
  const files = [markFile, checkpointFile].flatMap((s) =>
    s.status === "fulfilled" && s.value ? [s.value] : [],
  );
  const abortAll = () => Promise.all(files.map((file) => file.abort()));
  if (
    synced.status === "rejected" ||
    markFile.status === "rejected" ||
    checkpointFile.status === "rejected"
  ) {
    await abortAll();
    return { done: false };
  }
  try {
    return await host.lock(async () => {
      const now = host.cached();
      if (
        !now ||
        now.snapshot.state.identity?.initId !== identity.initId ||
        now.snapshot.head.seq < head.seq
      ) {
        await abortAll();
        return { done: false };
      }
      const onDisk = await host.keys.readHead().catch(() => null);
      if (onDisk && onDisk.initId === identity.initId && onDisk.seq >= head.seq) await markFile.value.abort();
      else await markFile.value.commit();
      const checkpointStaged = checkpointFile.value;
      if (checkpointStaged && now.checkpoint.seq < head.seq) {
        await checkpointStaged.commit();
        now.checkpoint = { ...head };
      } else await checkpointStaged?.abort();
      const caughtUp = now.snapshot.head.seq === head.seq;
      now.unsynced = !caughtUp;
      now.markBehind = !caughtUp;
      host.placed(now);
      return { done: true, caughtUp };
    });
  } catch {
    await abortAll();
    return { done: false };
  }
}

/**
 * Hands `flush` to `schedule` from a flow that holds no lock. The commit that defers a record schedules its flush
 * while holding the lock, and timers keep the async context they were made in: the flush, run after that hold
 * ended, would otherwise count as holding it and rename (or fall back to a commit) with no lock at all.
 */
export function scheduleUnlocked(schedule: (flush: () => void) => void, flush: () => void): void {
  outsideHeldLocks(() => schedule(flush));
}
