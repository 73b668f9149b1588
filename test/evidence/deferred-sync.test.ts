// Deferred durability of run receipts: the answer comes before the fsync, the head mark and checkpoint never name
// unsynced records, a crash can only cut the ledger back to a state it had, and any synced commit syncs them first.
import { statSync, truncateSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EvidenceLedger } from "../../runtime/evidence/index.js";
import { chainPosition, runRecord, useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();

const lazy = { durable: false } as const;
const { lastSeq, markSeq, checkpointSeq } = chainPosition(fx);

/** A ledger whose background flushes are held until the test runs them (or never: a crash). */
function heldLedger(): { ledger: EvidenceLedger; flushes: Array<() => void> } {
  const flushes: Array<() => void> = [];
  const ledger = new EvidenceLedger(fx.paths, {
    home: fx.home,
    checkpointEvery: 1,
    scheduleFlush: (flush) => flushes.push(flush),
  });
  return { ledger, flushes };
}

describe("deferred durability of run records", () => {
  it("answers with the records in the file while the head mark and the checkpoint stay at the last synced record", async () => {
    const { ledger, flushes } = heldLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const synced = lastSeq();
    expect([markSeq(), checkpointSeq()]).toEqual([synced, synced]);
    const answer = await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    expect(answer.snapshot.state.runs).toBe(2);
    expect(lastSeq()).toBe(synced + 1);
    expect([markSeq(), checkpointSeq()]).toEqual([synced, synced]);
    // Reads in this process (lock-free and under the lock) see the written record.
    expect((await ledger.read()).state.runs).toBe(2);
    expect(flushes).toHaveLength(1);
    flushes[0]?.();
    await ledger.flush();
    expect([markSeq(), checkpointSeq()]).toEqual([synced + 1, synced + 1]);
  });

  it("a crash before the sync cuts the ledger back to a state it had: no rollback refusal, the lost run is not counted", async () => {
    const { ledger } = heldLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const durableBytes = statSync(fx.paths.ledger).size;
    await ledger.transact(() => ({ records: [runRecord(1), runRecord(2)], result: undefined }), lazy);
    // What the disk may hold after a power loss: the synced prefix (the flush never ran).
    truncateSync(fx.paths.ledger, durableBytes);
    const restarted = fx.ledger();
    const snap = await restarted.read();
    expect(snap.state.runs).toBe(1);
    expect(snap.warnings).toEqual([]);
    await restarted.transact(() => ({ records: [runRecord(3)], result: undefined }));
    expect(await restarted.verifyAll()).toMatchObject({ ok: true, quarantined: 0 });
  });

  it("a crash that kept part of the unsynced append: the torn line is noted, its evidence not applied, nothing refused", async () => {
    const { ledger } = heldLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const durableBytes = statSync(fx.paths.ledger).size;
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    const written = statSync(fx.paths.ledger).size;
    truncateSync(fx.paths.ledger, durableBytes + Math.floor((written - durableBytes) / 2));
    const snap = await fx.ledger().read();
    expect(snap.state.runs).toBe(1);
    expect(snap.warnings.join("\n")).toContain(
      "The torn line was left in place and noted; no evidence was lost.",
    );
  });

  it("a synced commit after deferred ones makes them durable first: the mark names the latest record", async () => {
    const { ledger, flushes } = heldLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    await ledger.transact(() => ({ records: [runRecord(2)], result: undefined }), lazy);
    const before = markSeq();
    expect(lastSeq()).toBe(before + 2);
    // Even a transaction that appends nothing (a read under the lock, a refused Complete) syncs and moves the mark.
    await ledger.transact(() => ({ records: [], result: undefined }));
    expect(markSeq()).toBe(before + 2);
    expect(checkpointSeq()).toBe(before + 2);
    expect(flushes).toHaveLength(1);
  });

  it("only run and use records are deferred: another kind, or a durable caller in the same commit, is synced before the answer", async () => {
    const { ledger } = heldLedger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    const check = { stage: 0, kind: "check" as const, data: { passed: true, message: "ok" } };
    await ledger.transact(() => ({ records: [check], result: undefined }), lazy);
    expect(markSeq()).toBe(lastSeq());
    // However the group commit batches them, the durable caller is answered only once the mark names its record.
    const marks: number[] = [];
    const [, durable] = await Promise.all([
      ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy),
      ledger
        .transact(() => ({ records: [runRecord(2)], result: undefined }))
        .then((answer) => {
          marks.push(markSeq());
          return answer;
        }),
      ledger.transact(() => ({ records: [runRecord(3)], result: undefined }), lazy),
    ]);
    expect(marks[0]).toBeGreaterThanOrEqual(durable.snapshot.head.seq);
  });

  it("the default background flush makes the records durable on its own and moves the mark", async () => {
    const ledger = fx.ledger();
    await ledger.transact(() => ({ records: [runRecord(0)], result: undefined }));
    await ledger.transact(() => ({ records: [runRecord(1)], result: undefined }), lazy);
    await ledger.flush();
    expect(markSeq()).toBe(lastSeq());
    expect(checkpointSeq()).toBe(lastSeq());
  });
});
