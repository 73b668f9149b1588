// The evidence ledger: chaining, signatures, checkpoint, tamper detection and recovery, key handling.
import { cp, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EvidenceLedger,
  GENESIS_HASH,
  type LedgerRecord,
  ledgerKeyFile,
} from "../../runtime/evidence/index.js";
import { workspacePaths } from "../../runtime/workspace/paths.js";
import { type LedgerFixture, makeLedger } from "./helpers.js";

let fx: LedgerFixture;
beforeEach(async () => {
  fx = await makeLedger();
});
afterEach(async () => {
  await fx.cleanup();
});

async function appendEvidence(ledger: EvidenceLedger): Promise<void> {
  await ledger.transact(() => ({
    records: [
      { stage: 0, kind: "stage_enter", data: { name: "review" } },
      { stage: 0, kind: "list", data: { skills: ["a/one", "a/two"] } },
      { stage: 0, kind: "read", data: { skill: "a/one", startLine: 1, endLine: 5, totalLines: 10 } },
      { stage: 0, kind: "read", data: { skill: "a/one", startLine: 6, endLine: 10, totalLines: 10 } },
      { stage: 0, kind: "use", data: { skills: ["a/two"] } },
    ],
    result: undefined,
  }));
}

async function ledgerLines(): Promise<LedgerRecord[]> {
  const text = await readFile(fx.paths.ledger, "utf8");
  return text
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as LedgerRecord);
}

describe("EvidenceLedger", () => {
  it("chains, signs and folds records into state", async () => {
    await appendEvidence(fx.ledger());
    const records = await ledgerLines();
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(records[0]!.prev).toBe(GENESIS_HASH);
    for (let i = 1; i < records.length; i++) expect(records[i]!.prev).toBe(records[i - 1]!.hash);
    const snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([]);
    expect(snap.state.skills["a/one"]).toMatchObject({ list: true, read: true, use: false });
    expect(snap.state.skills["a/two"]).toMatchObject({ list: true, read: false, use: true });
    expect(snap.head.seq).toBe(5);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 5 });
  });

  it("creates the signing key outside the workspace with mode 0600", async () => {
    await appendEvidence(fx.ledger());
    const key = ledgerKeyFile(fx.home);
    expect(key.startsWith(fx.paths.root)).toBe(false);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect((await readFile(key, "utf8")).trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("drops a hand-edited record and everything after it, with a warning, and keeps the rejected lines", async () => {
    await appendEvidence(fx.ledger());
    const text = await readFile(fx.paths.ledger, "utf8");
    const lines = text.split("\n");
    lines[4] = lines[4]!.replace('"a/two"', '"a/one"');
    await writeFile(fx.paths.ledger, lines.join("\n"));
    // The checkpoint covers the whole file, so drop it to force verification of the edited region.
    await unlink(fx.paths.progress);
    const snap = await fx.ledger().read();
    expect(snap.warnings).toHaveLength(1);
    expect(snap.warnings[0]).toContain("record 5 content does not match its hash (edited)");
    expect(snap.warnings[0]).toContain("that record and the 0 after it were dropped");
    expect(snap.state.skills["a/one"]?.use).toBe(false);
    expect(snap.state.skills["a/two"]?.use).toBe(false);
    expect(snap.head.seq).toBe(4);
    const rejected = (await readdir(fx.paths.skillgateDir)).filter((f) => f.startsWith("ledger.rejected-"));
    expect(rejected).toHaveLength(1);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 4 });
    // The next append chains after the last good record.
    await fx
      .ledger()
      .transact(() => ({ records: [{ stage: 0, kind: "use", data: { skills: ["a/two"] } }], result: 0 }));
    expect((await fx.ledger().read()).warnings).toEqual([]);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 5 });
  });

  it("drops a forged record appended by hand after the checkpoint", async () => {
    await appendEvidence(fx.ledger());
    const records = await ledgerLines();
    const last = records[records.length - 1]!;
    const forged = {
      seq: last.seq + 1,
      time: last.time,
      stage: 0,
      kind: "use",
      data: { skills: ["a/one"] },
      prev: last.hash,
      hash: "f".repeat(64),
      sig: "0".repeat(64),
    };
    await writeFile(fx.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    const snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("record 6 content does not match its hash (edited)");
    expect(snap.state.skills["a/one"]?.use).toBe(false);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 5 });
  });

  it("detects a record re-hashed by hand (valid hash, bad signature)", async () => {
    await appendEvidence(fx.ledger());
    const { recordHash } = await import("../../runtime/evidence/record.js");
    const records = await ledgerLines();
    const last = records[records.length - 1]!;
    const body = {
      seq: last.seq + 1,
      time: last.time,
      stage: 0,
      kind: "use" as const,
      data: { skills: ["a/one"] },
      prev: last.hash,
    };
    const forged = { ...body, hash: recordHash(body), sig: "a".repeat(64) };
    await writeFile(fx.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    const snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("record 6 has a bad signature");
    expect(snap.state.skills["a/one"]?.use).toBe(false);
  });

  it("rebuilds from the ledger when the progress checkpoint is edited", async () => {
    await appendEvidence(fx.ledger());
    const checkpoint = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    checkpoint.state.skills["a/one"].use = true;
    await writeFile(fx.paths.progress, JSON.stringify(checkpoint));
    const snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([
      `the progress checkpoint ${fx.paths.progress} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
    ]);
    expect(snap.state.skills["a/one"]?.use).toBe(false);
    expect((await fx.ledger().read()).warnings).toEqual([]);
  });

  it("rebuilds silently when the checkpoint is deleted, and warns when the ledger is truncated under it", async () => {
    await appendEvidence(fx.ledger());
    await unlink(fx.paths.progress);
    let snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([]);
    expect(snap.state.skills["a/two"]?.use).toBe(true);
    await writeFile(fx.paths.ledger, "");
    snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("is shorter than its signed checkpoint");
    expect(snap.state.skills).toEqual({});
  });

  it("drops a torn last line (kill -9 mid-append) with a warning", async () => {
    await appendEvidence(fx.ledger());
    await writeFile(fx.paths.ledger, '{"seq":6,"time":"2026', { flag: "a" });
    const snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("the last line is incomplete (torn write)");
    expect(snap.head.seq).toBe(5);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 5 });
  });

  it("does not accept a ledger copied from another workspace", async () => {
    await appendEvidence(fx.ledger());
    const other = workspacePaths(join(fx.base, "other"));
    await cp(fx.paths.stateDir, other.stateDir, { recursive: true });
    const snap = await new EvidenceLedger(other, { home: fx.home }).read();
    expect(snap.warnings).toHaveLength(2);
    expect(snap.warnings[0]).toContain("progress checkpoint");
    expect(snap.warnings[1]).toContain("record 1 has a bad signature");
    expect(snap.state.skills).toEqual({});
  });

  it("by default refreshes the checkpoint every 32 records, so loads verify a bounded tail", async () => {
    const ledger = fx.ledger(32);
    for (let i = 0; i < 40; i++) {
      await ledger.transact(() => ({
        records: [{ stage: 0, kind: "use", data: { skills: ["a/two"], i } }],
        result: 0,
      }));
    }
    const checkpoint = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    expect(checkpoint.ledger.seq).toBe(33); // written with record 1, then 32 records later
    const snap = await ledger.read();
    expect(snap.head.seq).toBe(40);
    expect(snap.state.skills["a/two"]?.use).toBe(true);
  });

  it("loads with a checkpoint without re-reading covered records", async () => {
    await appendEvidence(fx.ledger());
    // Corrupt a covered record: the signed checkpoint already holds its effect, so state is unchanged and no
    // verification of the covered region happens on the fast path (verifyAll still sees it).
    const text = await readFile(fx.paths.ledger, "utf8");
    const lines = text.split("\n");
    lines[1] = lines[1]!.replace('"a/one"', '"a/xxx"');
    await writeFile(fx.paths.ledger, lines.join("\n"));
    const snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([]);
    expect(snap.state.skills["a/one"]?.list).toBe(true);
    expect((await fx.ledger().verifyAll()).ok).toBe(false);
  });
});

describe("unreadable state", () => {
  it("a ledger path that is a folder gives a LEDGER_TAMPERED error with the fix, not a crash", async () => {
    const { mkdir } = await import("node:fs/promises");
    await mkdir(fx.paths.ledger, { recursive: true });
    await expect(fx.ledger().read()).rejects.toMatchObject({
      code: "LEDGER_TAMPERED",
      message: `cannot read the evidence state in ${fx.paths.skillgateDir} (EISDIR); move ${fx.paths.ledger} and ${fx.paths.progress} aside (evidence will have to be collected again) and retry`,
    });
  });
});
