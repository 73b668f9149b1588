// The flush of deferred records: fsync and new mark/checkpoint bytes outside the lock, only renames under it; the mark
// only ever names durable records of this chain, never moves back, and anything unexpected falls back to a synced commit.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { WorkspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger, evidenceLocations, LEDGER_WAIT_CHANNEL } from "../../runtime/evidence/index.js";
import { holdsWorkspaceLock, LOCK_HELD_CHANNEL, withWorkspaceLock } from "../../runtime/workspace/index.js";
import { chainPosition, runRecord, useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();

const lazy = { durable: false } as const;
const noop = () => ({ records: [], result: undefined });
const { lastSeq, markSeq, checkpointSeq } = chainPosition(fx);
const headFile = () => evidenceLocations(fx.paths, fx.home).headFile;
const temps = () =>
  [fx.paths.skillgateDir, dirname(headFile())].flatMap((dir) =>
    readdirSync(dir).filter((name) => name.endsWith(".tmp")),
  );

/**
 * A ledger whose background flushes wait for the test, and whose lock runs `beforeNext` (once) just before the next
 * lock take, then notes the head mark right after that hold: a write slipped in while the flush staged its files.
 */
function probedLedger(checkpointEvery: number) {
  const flushes: Array<() => void> = [];
  const marksAfter: number[] = [];
  let beforeNext: (() => Promise<void>) | null = null;
  const ledger = new EvidenceLedger(fx.paths, {
    home: fx.home,
    checkpointEvery,
    scheduleFlush: (flush) => flushes.push(flush),
    lock: async <T>(paths: WorkspacePaths, fn: () => Promise<T>) => {
      const hook = beforeNext;
      beforeNext = null;
      if (!hook) return withWorkspaceLock(paths, fn);
      await hook();
      const result = await withWorkspaceLock(paths, fn);
      marksAfter.push(markSeq());
      return result;
    },
  });
  return {
    ledger,
    flushes,
    marksAfter,
    slipIn: (hook: () => Promise<void>) => {
      beforeNext = hook;
    },
  };
}

async function counted<T>(name: string, fn: () => Promise<T>): Promise<number> {
  let count = 0;
  const listener = () => {
    count += 1;
  };
  subscribe(name, listener);
  try {
    await fn();
  } finally {
    unsubscribe(name, listener);
  }
  return count;
}

describe("flush of deferred records", () => {
  it("one lock take and no ledger transaction: the mark and the checkpoint then name the last record, no temp file left", async () => {
    const { ledger, flushes } = probedLedger(1);
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const synced = lastSeq();
    for (let i = 1; i <= 3; i++)
      await ledger.transact(() => ({ records: [runRecord(i)], result: undefined }), lazy);
    expect([markSeq(), checkpointSeq(), lastSeq()]).toEqual([synced, synced, synced + 3]);
    let transactions = 0;
    const holds = await counted(LOCK_HELD_CHANNEL, async () => {
      transactions = await counted(LEDGER_WAIT_CHANNEL, async () => {
        flushes[0]?.();
        await ledger.flush();
      });
    });
    expect({ holds, transactions, flushes: flushes.length }).toEqual({
      holds: 1,
      transactions: 0,
      flushes: 1,
    });
    expect([markSeq(), checkpointSeq()]).toEqual([synced + 3, synced + 3]);
    expect(temps()).toEqual([]);
    const fresh = await fx.ledger().read();
    expect({ runs: fresh.state.runs, warnings: fresh.warnings }).toEqual({ runs: 4, warnings: [] });
  });

  it("a record appended while the flush staged its files: the mark names the record the flush synced, the next flush catches up", async () => {
    const { ledger, flushes, marksAfter, slipIn } = probedLedger(1);
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    const flushed = lastSeq();
    slipIn(async () => {
      await ledger.transact(() => ({ records: [runRecord(2)], result: undefined }), lazy);
    });
    flushes[0]?.();
    // The record left unsynced gets a flush of its own, held here like the first.
    await vi.waitFor(() => expect(flushes).toHaveLength(2));
    // Right after the first flush's hold: at the synced record, not at the one appended after its fsync.
    expect(marksAfter).toEqual([flushed]);
    flushes[1]?.();
    await ledger.flush();
    expect([markSeq(), checkpointSeq(), lastSeq()]).toEqual([flushed + 1, flushed + 1, flushed + 1]);
    expect(temps()).toEqual([]);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: flushed + 1, quarantined: 0 });
  });

  it("never moves back a mark another process moved further meanwhile", async () => {
    const { ledger, flushes, marksAfter, slipIn } = probedLedger(1000);
    const other = new EvidenceLedger(fx.paths, { home: fx.home, checkpointEvery: 1000 });
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    slipIn(async () => {
      await ledger.transact(() => ({ records: [runRecord(2)], result: undefined }), lazy);
      // A synced commit of another ledger instance that appends nothing: it syncs and moves the mark to the head.
      await other.transact(noop);
    });
    flushes[0]?.();
    await vi.waitFor(() => expect(flushes).toHaveLength(2));
    expect(marksAfter).toEqual([lastSeq()]);
    flushes[1]?.();
    await ledger.flush();
    expect(markSeq()).toBe(lastSeq());
    expect(temps()).toEqual([]);
  });

  it("falls back to a synced commit when another process appended meanwhile: every record kept, mark at the end", async () => {
    const { ledger, flushes, slipIn } = probedLedger(1);
    const other = new EvidenceLedger(fx.paths, { home: fx.home, checkpointEvery: 1 });
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    slipIn(async () => {
      await other.transact(() => ({ records: [runRecord(2)], result: undefined }));
    });
    const transactions = await counted(LEDGER_WAIT_CHANNEL, async () => {
      flushes[0]?.();
      await ledger.flush();
    });
    // The other instance's append, then this one's synced commit instead of the staged files.
    expect({ transactions, flushes: flushes.length }).toEqual({ transactions: 2, flushes: 1 });
    expect([markSeq(), checkpointSeq()]).toEqual([lastSeq(), lastSeq()]);
    expect(temps()).toEqual([]);
    const fresh = await fx.ledger().read();
    expect({ runs: fresh.state.runs, warnings: fresh.warnings }).toEqual({ runs: 3, warnings: [] });
    expect((await ledger.read()).state).toEqual(fresh.state);
  });

  it("the default background flush takes the lock itself: scheduled from inside a commit's hold, it does not inherit that hold", async () => {
    // The commit that defers a record schedules the flush while it holds the lock; the flush runs after that hold
    // ended, so it must take the lock again (a flow that still counted as holding it would rename unlocked).
    const asked: boolean[] = [];
    const ledger = new EvidenceLedger(fx.paths, {
      home: fx.home,
      checkpointEvery: 1,
      lock: <T>(paths: WorkspacePaths, fn: () => Promise<T>) => {
        asked.push(holdsWorkspaceLock(paths.lockFile));
        return withWorkspaceLock(paths, fn);
      },
    });
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    let holds = 0;
    const count = () => {
      holds += 1;
    };
    subscribe(LOCK_HELD_CHANNEL, count);
    try {
      await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
      await vi.waitFor(() => expect(markSeq()).toBe(lastSeq()));
      await ledger.flush();
    } finally {
      unsubscribe(LOCK_HELD_CHANNEL, count);
    }
    // The deferred commit's hold, then the flush's own.
    expect({ holds, asked }).toEqual({ holds: 2, asked: [false, false, false] });
    expect(checkpointSeq()).toBe(lastSeq());
  });
});
