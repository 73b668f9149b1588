// The evidence ledger: Ed25519 chain, checkpoint, quarantine without discarding, key/identity refusals, replay (adopt: adopt.test.ts).
import { cp, mkdir, readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  EvidenceLedger,
  GENESIS_HASH,
  identityFileFor,
  type LedgerRecord,
  ledgerKeyFile,
  verifySignature,
} from "../../runtime/evidence/index.js";
import { recordHash } from "../../runtime/evidence/record.js";
import { appendEvidence, refusal, useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();

async function ledgerText(): Promise<string> {
  return readFile(fx.paths.ledger, "utf8");
}

async function ledgerLines(): Promise<LedgerRecord[]> {
  return (await ledgerText())
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as LedgerRecord);
}

describe("EvidenceLedger chain and signatures", () => {
  it("starts with a genesis record naming the workspace and key, chains and Ed25519-signs every record", async () => {
    await appendEvidence(fx.ledger());
    const records = await ledgerLines();
    expect(records.map((r) => `${r.seq}:${r.kind}`)).toEqual([
      "1:genesis",
      "2:stage_enter",
      "3:list",
      "4:read",
      "5:read",
      "6:use",
    ]);
    expect(records[0]!.prev).toBe(GENESIS_HASH);
    for (let i = 1; i < records.length; i++) expect(records[i]!.prev).toBe(records[i - 1]!.hash);
    const genesis = records[0]!.data as {
      workspace: string;
      publicKey: string;
      fingerprint: string;
      initId: string;
    };
    expect(genesis.workspace).toBe(fx.paths.root);
    expect(genesis.fingerprint).toMatch(/^ed25519:[0-9a-f]{32}$/);
    for (const r of records) {
      expect(r.v).toBe(2);
      expect(verifySignature(genesis.publicKey, `skillgate-record:${r.hash}`, r.sig)).toBe(true);
    }
    const snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([]);
    expect(snap.state.skills["a/one"]).toMatchObject({ list: true, read: true, use: false });
    expect(snap.state.identity?.fingerprint).toBe(genesis.fingerprint);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 6, quarantined: 0 });
  });

  it("keeps the secret outside the workspace (0600), the public key and fingerprint inside", async () => {
    await appendEvidence(fx.ledger());
    const key = ledgerKeyFile(fx.home);
    expect(key.startsWith(fx.paths.root)).toBe(false);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    const identity = identityFileFor(fx.home, fx.paths.root);
    expect((await stat(identity)).mode & 0o777).toBe(0o600);
    const pub = JSON.parse(await readFile(join(fx.paths.skillgateDir, "ledger.pub"), "utf8"));
    expect(pub.fingerprint).toBe((await ledgerLines())[0]!.data.fingerprint);
    expect(JSON.stringify(await ledgerLines())).not.toContain((await readFile(key, "utf8")).trim());
  });

  it("refreshes the checkpoint every 32 records by default", async () => {
    const ledger = fx.ledger(32);
    for (let i = 0; i < 40; i++) {
      await ledger.transact(() => ({
        records: [{ stage: 0, kind: "use", data: { skills: ["a/two"], i } }],
        result: 0,
      }));
    }
    const checkpoint = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    expect(checkpoint.ledger.seq).toBe(34); // written with records 1-2 (genesis + first), then 32 later
    const snap = await ledger.read();
    expect(snap.head.seq).toBe(41);
  });
});

describe("tampering is quarantined, never discarded", () => {
  it("an edited record in the middle is skipped and noted; the rest of the chain stays valid", async () => {
    await appendEvidence(fx.ledger());
    const lines = (await ledgerText()).split("\n");
    lines[2] = lines[2]!.replace('"a/one"', '"a/xxx"'); // record 3 (list)
    await writeFile(fx.paths.ledger, lines.join("\n"));
    await unlink(fx.paths.progress);
    const ledger = fx.ledger();
    const snap = await ledger.read();
    expect(snap.warnings).toEqual([
      `evidence ledger ${fx.paths.ledger}: record 3 content does not match its hash (edited); record 3 is missing. Those lines were left in place, not applied, and noted in a signed quarantine record; the evidence of the current stage must be collected again (ListSkill, ReadTextFile, RunSkillScript, Check).`,
    ]);
    // Kept in place; a signed quarantine record was appended after the last good record.
    const after = (await ledgerText()).split("\n").filter((l) => l.length > 0);
    expect(after).toHaveLength(7);
    expect(after[2]).toBe(lines[2]);
    expect(JSON.parse(after[6]!).kind).toBe("quarantine");
    expect(snap.state.skills).toEqual({});
    expect((await fx.ledger().read()).warnings).toEqual([]);
    expect(await fx.ledger().verifyAll()).toEqual({ ok: true, records: 7, quarantined: 1 });
  });

  it("a forged record appended by hand (bad hash, then re-hashed with a bad signature) is quarantined", async () => {
    await appendEvidence(fx.ledger());
    const last = (await ledgerLines()).at(-1)!;
    const body = {
      v: 2 as const,
      seq: last.seq + 1,
      time: last.time,
      stage: 0,
      kind: "use" as const,
      data: { skills: ["a/one"] },
      prev: last.hash,
    };
    await writeFile(fx.paths.ledger, `${JSON.stringify({ ...body, hash: "f".repeat(64), sig: "AA==" })}\n`, {
      flag: "a",
    });
    let snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("record 7 content does not match its hash (edited)");
    expect(snap.state.skills["a/one"]?.use ?? false).toBe(false);
    const now = (await ledgerLines()).at(-1)!;
    const body2 = { ...body, seq: now.seq + 1, prev: now.hash };
    await writeFile(
      fx.paths.ledger,
      `${JSON.stringify({ ...body2, hash: recordHash(body2), sig: Buffer.alloc(64, 1).toString("base64") })}\n`,
      { flag: "a" },
    );
    snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain(
      `record ${body2.seq} has a bad signature (edited, or signed by another key)`,
    );
    expect(snap.state.skills["a/one"]?.use ?? false).toBe(false);
  });

  it("two records swapped are noted as missing and out of order", async () => {
    await appendEvidence(fx.ledger());
    const lines = (await ledgerText()).split("\n");
    [lines[3], lines[4]] = [lines[4]!, lines[3]!];
    await writeFile(fx.paths.ledger, lines.join("\n"));
    await unlink(fx.paths.progress);
    const snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("record 4 is out of order (after record 5)");
    expect(snap.warnings[0]).toContain("record 4 is missing");
  });

  it("a torn last line (kill -9 mid-append) is noted and loses no evidence", async () => {
    await appendEvidence(fx.ledger());
    await writeFile(fx.paths.ledger, '{"v":2,"seq":7,"time":"2026', { flag: "a" });
    const snap = await fx.ledger().read();
    expect(snap.warnings[0]).toContain("the last line is incomplete (torn write)");
    expect(snap.warnings[0]).toContain("no evidence was lost");
    expect(snap.state.skills["a/two"]?.use).toBe(true);
    await fx
      .ledger()
      .transact(() => ({ records: [{ stage: 0, kind: "use", data: { skills: ["a/one"] } }], result: 0 }));
    expect((await fx.ledger().read()).state.skills["a/one"]?.use).toBe(true);
    expect((await fx.ledger().verifyAll()).ok).toBe(true);
  });

  it("an edited checkpoint is rebuilt from the ledger; a deleted one silently", async () => {
    await appendEvidence(fx.ledger());
    const checkpoint = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    checkpoint.state.skills["a/one"].use = true;
    await writeFile(fx.paths.progress, JSON.stringify(checkpoint));
    const snap = await fx.ledger().read();
    expect(snap.warnings).toEqual([
      `the progress checkpoint ${fx.paths.progress} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
    ]);
    expect(snap.state.skills["a/one"]?.use).toBe(false);
    await unlink(fx.paths.progress);
    expect((await fx.ledger().read()).warnings).toEqual([]);
  });

  it("an emptied ledger under a checkpoint is refused, the checkpoint kept", async () => {
    await appendEvidence(fx.ledger());
    const progress = await readFile(fx.paths.progress, "utf8");
    await writeFile(fx.paths.ledger, "");
    expect(await refusal(fx.ledger().read())).toEqual({
      code: "LEDGER_TAMPERED",
      message: `the evidence ledger ${fx.paths.ledger} is empty but the progress checkpoint ${fx.paths.progress} records signed progress: the ledger was deleted or truncated. Nothing was changed. Restore ledger.jsonl from a backup, or move progress.json aside to start a new ledger (the stages must then be completed again).`,
    });
    expect(await readFile(fx.paths.progress, "utf8")).toBe(progress);
  });

  it("a ledger path that is a folder is refused with the fix", async () => {
    await mkdir(fx.paths.ledger, { recursive: true });
    expect((await refusal(fx.ledger().read())).code).toBe("LEDGER_TAMPERED");
  });
});

describe("key and identity mismatches refuse and explain, touching nothing", () => {
  it("another home: LEDGER_KEY_MISMATCH naming the home that created it; the right home works again", async () => {
    await appendEvidence(fx.ledger());
    const before = await ledgerText();
    const other = new EvidenceLedger(fx.paths, { home: join(fx.base, "other-home") });
    const got = await refusal(other.read());
    expect(got.code).toBe("LEDGER_KEY_MISMATCH");
    expect(got.message).toContain(`Set SKILLGATE_HOME to the home that created it (${fx.home})`);
    expect(await ledgerText()).toBe(before);
    expect((await fx.ledger().read()).state.skills["a/two"]?.use).toBe(true);
  });

  it("replay: a ledger saved before a fresh init and put back is refused as LEDGER_REPLAY", async () => {
    await appendEvidence(fx.ledger());
    const saved = join(fx.base, "saved");
    await cp(fx.paths.skillgateDir, saved, { recursive: true });
    await rm(fx.paths.root, { recursive: true, force: true });
    await mkdir(fx.paths.skillgateDir, { recursive: true });
    await fx.ledger().read(); // fresh ledger: a new init id
    await cp(join(saved, "ledger.jsonl"), fx.paths.ledger);
    await cp(join(saved, "progress.json"), fx.paths.progress);
    const got = await refusal(fx.ledger().read());
    expect(got.code).toBe("LEDGER_REPLAY");
    expect(got.message).toContain("comes from an earlier init of this workspace");
  });

  it("a lost identity file is restored when the key proves the ledger is ours", async () => {
    await appendEvidence(fx.ledger());
    await unlink(identityFileFor(fx.home, fx.paths.root));
    expect((await fx.ledger().read()).state.skills["a/two"]?.use).toBe(true);
    expect((await stat(identityFileFor(fx.home, fx.paths.root))).isFile()).toBe(true);
  });

  it("a v1 (HMAC) ledger is refused with the way forward and left as it is", async () => {
    const v1 = `${JSON.stringify({ seq: 1, time: "t", stage: 0, kind: "stage_enter", data: {}, prev: GENESIS_HASH, hash: "a".repeat(64), sig: "b".repeat(64) })}\n`;
    await writeFile(fx.paths.ledger, v1);
    const got = await refusal(fx.ledger().read());
    expect(got.code).toBe("LEDGER_FORMAT_OLD");
    expect(await ledgerText()).toBe(v1);
    expect(await readdir(fx.paths.skillgateDir)).toEqual(["ledger.jsonl"]);
  });
});
