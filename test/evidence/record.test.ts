// One ledger record (record.ts): sealing chains and signs it; any edit, reorder, foreign key or malformed line is named.
import { describe, expect, it } from "vitest";
import {
  GENESIS_HASH,
  type LedgerRecord,
  parseLine,
  recordHash,
  sealRecord,
  signerFromSeed,
  verifySignature,
} from "../../runtime/evidence/index.js";
import { chainProblem, equalHex, recordProblem, signedMessage } from "../../runtime/evidence/record.js";

const signer = signerFromSeed(Buffer.alloc(32, 5));
const other = signerFromSeed(Buffer.alloc(32, 6));
const TIME = "2026-01-01T00:00:00.000Z";
const first = sealRecord(
  { stage: 0, kind: "list", data: { skills: ["a"] } },
  { seq: 0, hash: GENESIS_HASH },
  TIME,
  signer,
);
const second = sealRecord({ stage: 0, kind: "use", data: { skills: ["a"] } }, first, TIME, signer);

describe("sealRecord", () => {
  it("numbers after the previous record, chains its hash, hashes the canonical body and signs the hash", () => {
    expect(first).toMatchObject({ v: 2, seq: 1, time: TIME, stage: 0, kind: "list", prev: GENESIS_HASH });
    expect(second).toMatchObject({ seq: 2, prev: first.hash });
    expect(first.hash).toBe(recordHash(first));
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(signer.publicKey, signedMessage(first.hash), first.sig)).toBe(true);
    expect(signedMessage("h")).toBe("skillgate-record:h");
  });

  it("the hash covers every field but hash and sig, whatever the key order", () => {
    const { hash: _hash, sig: _sig, ...body } = first;
    const reordered = Object.fromEntries(Object.entries(body).reverse()) as typeof body;
    expect(recordHash(reordered)).toBe(first.hash);
    for (const edit of [
      { seq: 9 },
      { time: "x" },
      { stage: 1 },
      { kind: "use" },
      { data: {} },
      { prev: "p" },
    ] as const)
      expect(recordHash({ ...body, ...edit } as typeof body)).not.toBe(first.hash);
  });
});

describe("recordProblem and chainProblem", () => {
  it.each<[string, LedgerRecord, string, string | null]>([
    ["an intact record", first, signer.publicKey, null],
    [
      "edited data",
      { ...first, data: { skills: ["b"] } },
      signer.publicKey,
      "record 1 content does not match its hash (edited)",
    ],
    [
      "re-hashed after an edit (the signature no longer fits)",
      (() => {
        const edited = { ...first, data: { skills: ["b"] } };
        return { ...edited, hash: recordHash(edited) };
      })(),
      signer.publicKey,
      "record 1 has a bad signature (edited, or signed by another key)",
    ],
    [
      "another workspace's key",
      first,
      other.publicKey,
      "record 1 has a bad signature (edited, or signed by another key)",
    ],
  ])("recordProblem: %s", (_name, record, key, problem) => {
    expect(recordProblem(record, key)).toBe(problem);
  });

  it.each<[string, LedgerRecord, { seq: number; hash: string }, string | null]>([
    ["the next record", second, first, null],
    [
      "a record missing before it",
      second,
      { seq: 0, hash: GENESIS_HASH },
      "record 2 breaks the sequence (expected 1: a record is missing, duplicated or reordered)",
    ],
    [
      "a duplicate",
      first,
      first,
      "record 1 breaks the sequence (expected 2: a record is missing, duplicated or reordered)",
    ],
    [
      "a chain forked at the previous record",
      second,
      { seq: 1, hash: "f".repeat(64) },
      "record 2 does not chain to the previous record's hash",
    ],
  ])("chainProblem: %s", (_name, record, previous, problem) => {
    expect(chainProblem(record, previous)).toBe(problem);
  });
});

describe("parseLine", () => {
  const NOT_RECORD = "the line is not a ledger record (fields missing or of the wrong type)";
  it.each<[string, string, ReturnType<typeof parseLine>]>([
    ["a record", JSON.stringify(first), { ok: true, record: first }],
    [
      "a torn line",
      JSON.stringify(first).slice(0, 40),
      { ok: false, problem: "the line is not valid JSON (torn write or hand edit)" },
    ],
    [
      "a v1 HMAC record",
      JSON.stringify({ seq: 1, kind: "list", sig: "ab".repeat(32) }),
      { ok: false, legacy: true, problem: "the record is in the old HMAC format (ledger v1)" },
    ],
    ["an unknown kind", JSON.stringify({ ...first, kind: "grant" }), { ok: false, problem: NOT_RECORD }],
    ["another version", JSON.stringify({ ...first, v: 3 }), { ok: false, problem: NOT_RECORD }],
    ["a fractional seq", JSON.stringify({ ...first, seq: 1.5 }), { ok: false, problem: NOT_RECORD }],
    ["data as a list", JSON.stringify({ ...first, data: [] }), { ok: false, problem: NOT_RECORD }],
    ["no signature", JSON.stringify({ ...first, sig: undefined }), { ok: false, problem: NOT_RECORD }],
    ["a JSON scalar", "42", { ok: false, problem: NOT_RECORD }],
    ["null", "null", { ok: false, problem: NOT_RECORD }],
  ])("%s", (_name, line, parsed) => {
    expect(parseLine(line)).toEqual(parsed);
  });
});

describe("equalHex", () => {
  it("is true only for the same string, length checked first", () => {
    expect(equalHex("ab12", "ab12")).toBe(true);
    expect(equalHex("ab12", "ab13")).toBe(false);
    expect(equalHex("ab12", "ab1")).toBe(false);
    expect(equalHex("", "")).toBe(true);
  });
});
