// Ledger folding (fold.ts) as pure functions: exact states, and every untrusted line named with its reason.
import { describe, expect, it } from "vitest";
import { adoptCountersignMessage } from "../../runtime/evidence/fold.js";
import {
  emptyState,
  foldLines,
  GENESIS_HASH,
  type LedgerRecord,
  sealRecord,
  signerFromSeed,
  splitLedger,
  type UnsignedRecord,
} from "../../runtime/evidence/index.js";
import { SKILL, TEXT_SKILL } from "./core.js";

const signer = signerFromSeed(Buffer.alloc(32, 1));
const other = signerFromSeed(Buffer.alloc(32, 2));
const TIME = "2026-01-01T00:00:00.000Z";

/** Seals drafts into a chain signed by `signer` (genesis first); returns the records. */
function chain(drafts: UnsignedRecord[], by = signer): LedgerRecord[] {
  const out: LedgerRecord[] = [];
  let head = { seq: 0, hash: GENESIS_HASH };
  for (const draft of drafts) {
    const r = sealRecord(draft, head, TIME, by);
    out.push(r);
    head = r;
  }
  return out;
}

const genesis = (by = signer): UnsignedRecord => ({
  stage: 0,
  kind: "genesis",
  data: { workspace: "/w", initId: "i", publicKey: by.publicKey, fingerprint: by.fingerprint },
});
const draft = (kind: UnsignedRecord["kind"], data: Record<string, unknown> = {}): UnsignedRecord => ({
  stage: 0,
  kind,
  data,
});
const toBytes = (records: Array<LedgerRecord | string>, end = "\n") =>
  Buffer.from(records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + end);
const fold = (bytes: Buffer) =>
  foldLines(splitLedger(bytes), { state: emptyState(), head: { offset: 0, seq: 0, hash: GENESIS_HASH } });
const base = () =>
  chain([
    genesis(),
    draft("stage_enter", { name: "a" }),
    draft("list", { skills: [SKILL] }),
    draft("use", { skills: [SKILL] }),
  ]);

describe("foldLines", () => {
  it("a clean chain applies every record and ends at the last", () => {
    const records = base();
    const bytes = toBytes(records);
    const result = fold(bytes);
    expect(result.bad).toEqual([]);
    expect(result.gaps).toEqual([]);
    expect(result.head).toEqual({ offset: bytes.length, seq: 4, hash: records[3]!.hash });
    expect(result.state.skills[SKILL]).toMatchObject({ list: true, use: true });
    expect(result.state.identity?.publicKey).toBe(signer.publicKey);
  });

  it.each([
    {
      name: "an edited record (content no longer matches its hash)",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, { ...r[2]!, data: { skills: ["forged"] } }, r[3]!],
      reasons: ["record 3 content does not match its hash (edited)"],
      gaps: [[3, 3]],
      list: false,
    },
    {
      name: "a record re-signed by another key",
      edit: (r: LedgerRecord[]) => [
        r[0]!,
        r[1]!,
        { ...r[2]!, sig: other.sign(`skillgate-record:${r[2]!.hash}`) },
        r[3]!,
      ],
      reasons: ["record 3 has a bad signature (edited, or signed by another key)"],
      gaps: [[3, 3]],
      list: false,
    },
    {
      name: "a deleted record",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, r[3]!],
      reasons: [],
      gaps: [[3, 3]],
      list: false,
    },
    {
      name: "two records swapped",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, r[3]!, r[2]!],
      reasons: ["record 3 is out of order (after record 4)"],
      gaps: [[3, 3]],
      list: false,
    },
    {
      name: "a duplicated record",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, r[2]!, r[2]!, r[3]!],
      reasons: ["record 3 is out of order (after record 3)"],
      gaps: [],
      list: true,
    },
    {
      name: "a line that is not JSON",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, r[2]!, "{oops", r[3]!],
      reasons: ["the line is not valid JSON (torn write or hand edit)"],
      gaps: [],
      list: true,
    },
    {
      name: "a JSON line that is no record",
      edit: (r: LedgerRecord[]) => [r[0]!, r[1]!, r[2]!, '{"v":2}', r[3]!],
      reasons: ["the line is not a ledger record (fields missing or of the wrong type)"],
      gaps: [],
      list: true,
    },
  ])("$name is skipped and named", ({ edit, reasons, gaps, list }) => {
    const result = fold(toBytes(edit(base())));
    expect(result.bad.map((b) => b.reason)).toEqual(reasons);
    expect(result.gaps).toEqual(gaps);
    expect(result.unaccounted).toEqual({ bad: result.bad, gaps: result.gaps });
    expect(result.state.skills[SKILL]?.list ?? false).toBe(list);
    expect(result.head.seq).toBe(4);
  });

  it("a torn last line is marked torn and the head stays on the last whole record", () => {
    const records = base();
    const whole = toBytes(records.slice(0, 3));
    const bytes = Buffer.concat([whole, Buffer.from(JSON.stringify(records[3]).slice(0, 40))]);
    const result = fold(bytes);
    expect(result.bad).toEqual([
      expect.objectContaining({
        offset: whole.length,
        seq: null,
        torn: true,
        legacy: false,
        reason: "the last line is incomplete (torn write)",
      }),
    ]);
    expect(result.head).toMatchObject({ offset: whole.length, seq: 3 });
  });

  it("a second genesis is refused; the fold trusts a genesis under its own key (keys.ts decides whose key that is)", () => {
    const records = base();
    const intruder = chain([genesis(other)], other)[0]!;
    const again = sealRecord(genesis(other), records[3]!, TIME, signer);
    expect(fold(toBytes([...records, again])).bad.map((b) => b.reason)).toEqual([
      "record 5 is a second genesis record",
    ]);
    // A stage record before any genesis has no key to verify against.
    const headless = fold(toBytes([records[1]!]));
    expect(headless.state.identity).toBeNull();
    expect(headless.bad.map((b) => b.reason)).toEqual([
      "record 2 has a bad signature (edited, or signed by another key)",
    ]);
    expect(fold(toBytes([intruder])).state.identity?.publicKey).toBe(other.publicKey);
  });

  it("an adopt hands over only with the next key's countersignature", () => {
    const records = base();
    const data = {
      workspace: "/w2",
      initId: "j",
      publicKey: other.publicKey,
      fingerprint: other.fingerprint,
    };
    const forged = sealRecord(
      { stage: 0, kind: "adopt", data: { ...data, countersig: signer.sign("x") } },
      records[3]!,
      TIME,
      signer,
    );
    expect(fold(toBytes([...records, forged])).bad.map((b) => b.reason)).toEqual([
      "record 5 hands the ledger to a key that did not countersign it",
    ]);
    const countersig = other.sign(adoptCountersignMessage(records[3]!.hash, other.publicKey));
    const adopt = sealRecord(
      { stage: 0, kind: "adopt", data: { ...data, countersig } },
      records[3]!,
      TIME,
      signer,
    );
    const after = sealRecord(draft("list", { skills: [TEXT_SKILL] }), adopt, TIME, other);
    const result = fold(toBytes([...records, adopt, after]));
    expect(result.bad).toEqual([]);
    expect(result.state.identity?.workspace).toBe("/w2");
    expect(result.state.skills[TEXT_SKILL]?.list).toBe(true);
  });

  it("a quarantine record accounts for the lines and gaps it names", () => {
    const records = base();
    const broken = [records[0]!, records[1]!, "{oops", records[3]!];
    const first = fold(toBytes(broken));
    const note = sealRecord(
      draft("quarantine", {
        lines: first.bad.map((b) => b.sha256),
        gaps: first.gaps.map(([a, b]) => `${a}-${b}`),
        reset: true,
      }),
      records[3]!,
      TIME,
      signer,
    );
    const result = fold(toBytes([...broken, note]));
    expect(result.bad).toHaveLength(1);
    expect(result.gaps).toEqual([[3, 3]]);
    expect(result.unaccounted).toEqual({ bad: [], gaps: [] });
    expect(result.state.quarantined).toHaveLength(1);
  });

  it("an old HMAC (v1) line is marked legacy", () => {
    const legacy = JSON.stringify({ seq: 1, kind: "list", sig: "a".repeat(64) });
    expect(fold(toBytes([legacy])).bad).toEqual([
      expect.objectContaining({ legacy: true, reason: "the record is in the old HMAC format (ledger v1)" }),
    ]);
  });

  it("calls onRecord with each trusted record and the state before it", () => {
    const seen: Array<[number, boolean]> = [];
    foldLines(
      splitLedger(toBytes(base())),
      { state: emptyState(), head: { offset: 0, seq: 0, hash: GENESIS_HASH } },
      {
        onRecord: (r, before) => seen.push([r.seq, before.skills[SKILL]?.list ?? false]),
      },
    );
    expect(seen).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
  });
});

describe("splitLedger", () => {
  it("gives offsets, skips blank lines and marks a missing final newline", () => {
    expect(splitLedger(Buffer.from("a\n\nbc\nd"), 10)).toEqual([
      { text: "a", offset: 10, end: 12, torn: false },
      { text: "bc", offset: 13, end: 16, torn: false },
      { text: "d", offset: 16, end: 17, torn: true },
    ]);
  });
});
