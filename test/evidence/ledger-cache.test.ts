// The ledger's unchanged-files fast path: repeated reads reuse the verified state, any edit is still caught.
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { beforeEach, describe, expect, it } from "vitest";
import type { EvidenceLedger, LedgerRecord } from "../../runtime/evidence/index.js";
import { useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();
let ledger: EvidenceLedger;
beforeEach(async () => {
  ledger = fx.ledger(32);
  await ledger.transact(() => ({
    records: [
      { stage: 0, kind: "stage_enter", data: { name: "review" } },
      { stage: 0, kind: "list", data: { skills: ["a/one"] } },
    ],
    result: undefined,
  }));
});

async function lastRecord(): Promise<LedgerRecord> {
  const lines = (await readFile(fx.paths.ledger, "utf8")).split("\n").filter((line) => line.length > 0);
  return JSON.parse(lines[lines.length - 1] as string) as LedgerRecord;
}

describe("EvidenceLedger unchanged-files fast path", () => {
  it("serves a repeated read of unchanged files from the verified state, as a copy", async () => {
    const first = await ledger.read();
    const again = await ledger.readUnchanged();
    expect(again).toEqual(first);
    again!.state.skills["a/one"]!.list = false;
    expect((await ledger.read()).state.skills["a/one"]?.list).toBe(true);
  });

  it("has nothing to serve before the first load; after its own append it serves what it wrote", async () => {
    expect(await fx.ledger(32).readUnchanged()).toBeNull();
    await ledger.read();
    await ledger.transact(() => ({
      records: [{ stage: 0, kind: "use", data: { skills: ["a/one"] } }],
      result: undefined,
    }));
    // The state this process wrote, without re-verifying its own records; equal to what a fresh load finds.
    const kept = await ledger.readUnchanged();
    expect(kept?.state.skills["a/one"]?.use).toBe(true);
    expect(kept).toEqual(await fx.ledger(32).read());
  });

  it("still drops a record forged by hand right after its own append", async () => {
    await ledger.transact(() => ({
      records: [{ stage: 0, kind: "list", data: { skills: ["a/two"] } }],
      result: undefined,
    }));
    const last = await lastRecord();
    const forged = { ...last, seq: last.seq + 1, prev: last.hash, kind: "use", hash: "f".repeat(64) };
    await writeFile(fx.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    expect(await ledger.readUnchanged()).toBeNull();
    const snap = await ledger.read();
    expect(snap.warnings[0]).toContain(`record ${last.seq + 1} content does not match its hash (edited)`);
    expect(snap.state.skills["a/one"]?.use ?? false).toBe(false);
  });

  it("still drops a record forged by hand after a cached read on the same instance", async () => {
    await ledger.read();
    const last = await lastRecord();
    const forged = { ...last, seq: last.seq + 1, prev: last.hash, kind: "use", hash: "f".repeat(64) };
    await writeFile(fx.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    expect(await ledger.readUnchanged()).toBeNull();
    const snap = await ledger.read();
    expect(snap.warnings[0]).toContain(`record ${last.seq + 1} content does not match its hash (edited)`);
    expect(snap.state.skills["a/one"]?.use ?? false).toBe(false);
  });

  it("notices a same-size edit with the old mtime put back (ctime changes anyway)", async () => {
    // A record after the checkpoint (the first append wrote it; the next one is 31 short of a new one).
    await ledger.transact(() => ({
      records: [{ stage: 0, kind: "list", data: { skills: ["a/two"] } }],
      result: undefined,
    }));
    expect((await ledger.read()).state.skills["a/two"]?.list).toBe(true);
    const before = await stat(fx.paths.ledger);
    const text = await readFile(fx.paths.ledger, "utf8");
    const edited = text.replace(/"a\/two"(?![\s\S]*"a\/two")/, '"a/six"');
    expect(edited).not.toBe(text);
    expect(edited.length).toBe(text.length);
    await writeFile(fx.paths.ledger, edited);
    await utimes(fx.paths.ledger, before.atime, before.mtime);
    expect(await ledger.readUnchanged()).toBeNull();
    const snap = await ledger.read();
    expect(snap.warnings[0]).toContain("record 4 content does not match its hash (edited)"); // record 1 is genesis
    expect(snap.state.skills["a/six"]).toBeUndefined();
    expect(snap.state.skills["a/two"]).toBeUndefined();
  });
});
