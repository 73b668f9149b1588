// The ledger's bytes on disk (ledger-files.ts): ranged reads, synced appends, file identity, the signed checkpoint and its anchor in the ledger.
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  emptyState,
  GENESIS_HASH,
  type LedgerRecord,
  sealRecord,
  signerFromSeed,
  verifySignature,
} from "../../runtime/evidence/index.js";
import {
  anchorMatches,
  appendSynced,
  checkpointBytes,
  checkpointMessage,
  fileIdentity,
  readCheckpoint,
  readRange,
  zeroHead,
} from "../../runtime/evidence/ledger-files.js";
import { tempRoot } from "../support/workspace.js";

const root = tempRoot("skillgate-ledger-files-");
afterAll(() => root.cleanup());
const signer = signerFromSeed(Buffer.alloc(32, 21));
const TIME = "2026-01-01T00:00:00.000Z";

/** Writes sealed records as ledger lines; returns them with the byte offset after each. */
function writeLedger(
  file: string,
  payloads: Array<Record<string, unknown>>,
): Array<{ record: LedgerRecord; end: number }> {
  let head = { seq: 0, hash: GENESIS_HASH };
  let text = "";
  const out: Array<{ record: LedgerRecord; end: number }> = [];
  for (const data of payloads) {
    const record = sealRecord({ stage: 0, kind: "run", data }, head, TIME, signer);
    text += `${JSON.stringify(record)}\n`;
    out.push({ record, end: Buffer.byteLength(text) });
    head = record;
  }
  writeFileSync(file, text);
  return out;
}

describe("readRange and appendSynced", () => {
  it("reads exactly the bytes asked for, short at the end of the file, nothing for an empty range", async () => {
    const file = root.path("range.txt");
    writeFileSync(file, "0123456789");
    expect((await readRange(file, 2, 5)).toString()).toBe("234");
    expect((await readRange(file, 8, 20)).toString()).toBe("89");
    expect(await readRange(file, 5, 5)).toHaveLength(0);
    expect(await readRange(file, 6, 3)).toHaveLength(0);
  });

  it("appends to the end, creating the file when asked", async () => {
    const file = root.path("append.jsonl");
    await appendSynced(file, "a\n", true);
    await appendSynced(file, "b\n");
    expect(readFileSync(file, "utf8")).toBe("a\nb\n");
  });
});

describe("fileIdentity", () => {
  it("is 'missing' for no file, stable while untouched, and changes with an append", async () => {
    const file = root.path("identity.txt");
    expect(await fileIdentity(file)).toBe("missing");
    writeFileSync(file, "x");
    const first = await fileIdentity(file);
    expect(first).toMatch(/^\d+:1:\d+:\d+$/);
    expect(await fileIdentity(file)).toBe(first);
    await appendSynced(file, "y");
    expect(await fileIdentity(file)).not.toBe(first);
  });
});

describe("the checkpoint", () => {
  const head = { offset: 120, seq: 3, hash: "c".repeat(64) };
  const state = {
    ...emptyState(),
    identity: { workspace: "/ws", initId: "i", publicKey: signer.publicKey, fingerprint: signer.fingerprint },
    runs: 2,
  };

  it("is signed over the head and state, and reads back when intact", async () => {
    const file = root.path("progress.json");
    const bytes = checkpointBytes(signer, head, state);
    const parsed = JSON.parse(bytes);
    expect(parsed).toMatchObject({ version: 2, ledger: head, state });
    expect(verifySignature(signer.publicKey, checkpointMessage(head, state), parsed.sig)).toBe(true);
    expect(checkpointMessage(head, state).startsWith("skillgate-checkpoint:")).toBe(true);
    writeFileSync(file, bytes);
    const warnings: string[] = [];
    expect(await readCheckpoint(file, warnings)).toEqual(parsed);
    expect(warnings).toEqual([]);
    expect(await readCheckpoint(root.path("no-progress.json"), warnings)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it.each([
    ["an edited state", (text: string) => text.replace('"runs":2', '"runs":9')],
    ["an edited head", (text: string) => text.replace('"seq":3', '"seq":4')],
    ["torn bytes", (text: string) => text.slice(0, 50)],
    ["an older version", (text: string) => text.replace('"version":2', '"version":1')],
  ])("%s is not trusted: state is rebuilt from the ledger, and the warning says so", async (name, edit) => {
    const file = root.path(`progress-${name.replaceAll(" ", "-")}.json`);
    writeFileSync(file, edit(checkpointBytes(signer, head, state)));
    const warnings: string[] = [];
    expect(await readCheckpoint(file, warnings)).toBeNull();
    expect(warnings).toEqual([
      `the progress checkpoint ${file} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
    ]);
  });
});

describe("anchorMatches", () => {
  it("is true only when the record ending at the checkpoint's offset has its seq and hash", async () => {
    const file = root.path("anchor.jsonl");
    const lines = writeLedger(file, [{ i: 1 }, { i: 2 }, { i: 3 }]);
    const at = (n: number) => ({
      offset: lines[n]!.end,
      seq: lines[n]!.record.seq,
      hash: lines[n]!.record.hash,
    });
    expect(await anchorMatches(file, at(0))).toBe(true);
    expect(await anchorMatches(file, at(2))).toBe(true);
    expect(await anchorMatches(file, zeroHead())).toBe(false);
    expect(await anchorMatches(file, { ...at(1), seq: 3 })).toBe(false);
    expect(await anchorMatches(file, { ...at(1), hash: "0".repeat(64) })).toBe(false);
    expect(await anchorMatches(file, { ...at(1), offset: at(1).offset - 5 })).toBe(false);
  });

  it("finds a record longer than its first read window (a 100 KB record), and a rewritten one no longer matches", async () => {
    const file = root.path("anchor-long.jsonl");
    const lines = writeLedger(file, [{ i: 1 }, { big: "x".repeat(100_000) }]);
    const head = { offset: lines[1]!.end, seq: 2, hash: lines[1]!.record.hash };
    expect(await anchorMatches(file, head)).toBe(true);
    writeLedger(file, [{ i: 1 }, { big: "y".repeat(100_000) }]);
    expect(await anchorMatches(file, head)).toBe(false);
  });

  it("zeroHead is the head before genesis", () => {
    expect(zeroHead()).toEqual({ offset: 0, seq: 0, hash: GENESIS_HASH });
  });
});
