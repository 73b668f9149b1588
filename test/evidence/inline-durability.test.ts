import { describe, expect, it } from "vitest";
import type { WorkspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";
import { withWorkspaceLock } from "../../runtime/workspace/index.js";
import { chainPosition, runRecord, useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();

const { lastSeq, markSeq, checkpointSeq } = chainPosition(fx);

/** A ledger with the given durability whose lock cycles and scheduled flushes are counted (flushes are held). */
function countedLedger(durability?: "deferred" | "inline") {
  const seen = { locks: 0, flushes: [] as Array<() => void> };
  const ledger = new EvidenceLedger(fx.paths, {
    home: fx.home,
    checkpointEvery: 1,
    ...(durability ? { durability } : {}),
    lock: <T>(paths: WorkspacePaths, fn: () => Promise<T>) => {
      seen.locks++;
      return withWorkspaceLock(paths, fn);
    },
    scheduleFlush: (flush) => seen.flushes.push(flush),
  });
  return { ledger, seen };
}

describe("inline durability", () => {
  it("a durable:false run receipt moves the head mark and the checkpoint in its own commit and schedules no flush", async () => {
    const { ledger, seen } = countedLedger("inline");
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const synced = lastSeq();
    const answer = await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), {
      durable: false,
    });
    expect(answer.snapshot.state.runs).toBe(2);
    // The mark and the checkpoint move only in a synced commit, after its fsync: the record is durable.
    expect([lastSeq(), markSeq(), checkpointSeq()]).toEqual([synced + 1, synced + 1, synced + 1]);
    expect(seen.flushes).toHaveLength(0);
    await ledger.flush();
    expect(seen.locks).toBe(2);
    expect(await fx.ledger().verifyAll()).toMatchObject({ ok: true, records: synced + 1, quarantined: 0 });
  });

  it("the default (deferred) leaves the mark behind and flushes in a second commit: what a one-shot process avoids", async () => {
    const { ledger, seen } = countedLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const synced = lastSeq();
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), { durable: false });
    expect([lastSeq(), markSeq(), checkpointSeq()]).toEqual([synced + 1, synced, synced]);
    expect(seen.flushes).toHaveLength(1);
    seen.flushes[0]?.();
    await ledger.flush();
    expect([markSeq(), checkpointSeq()]).toEqual([synced + 1, synced + 1]);
    expect(seen.locks).toBe(3);
  });
});
