// Folds ledger lines into evidence state, verifying each record on its own and noting every line that cannot be trusted.

import { applyRecord } from "./apply.js";
import { sha256Hex } from "./canonical.js";
import { chainProblem, GENESIS_HASH, type LedgerRecord, parseLine, recordProblem } from "./record.js";
import { verifySignature } from "./signer.js";
import { type EvidenceState, emptyState } from "./state.js";

export interface Head {
  offset: number;
  seq: number;
  hash: string;
}

/** A line that was not applied: its place, content hash and why. */
export interface BadLine {
  offset: number;
  seq: number | null;
  sha256: string;
  reason: string;
  /** The file's last line without a newline: a crash mid-append, not an edit. */
  torn: boolean;
  legacy: boolean;
}

export interface FoldResult {
  state: EvidenceState;
  head: Head;
  bad: BadLine[];
  /** Seq ranges missing between trusted records (deleted or reordered lines). */
  gaps: Array<[number, number]>;
  /** Bad lines and gaps not yet covered by a quarantine record later in the ledger. */
  unaccounted: { bad: BadLine[]; gaps: Array<[number, number]> };
}

export interface FoldOptions {
  /** Called with each trusted record and the state before it is applied (the offline verifier checks stages here). */
  onRecord?: (record: LedgerRecord, before: EvidenceState) => void;
}

export function adoptCountersignMessage(prevHash: string, publicKey: string): string {
  return `skillgate-adopt:${prevHash}:${publicKey}`;
}

/** Splits bytes into lines with their offsets; the last line may lack its newline. */
export function splitLedger(
  bytes: Buffer,
  base = 0,
): Array<{ text: string; offset: number; end: number; torn: boolean }> {
  const out: Array<{ text: string; offset: number; end: number; torn: boolean }> = [];
  let cursor = 0;
  while (cursor < bytes.length) {
    const newline = bytes.indexOf(10, cursor);
    const end = newline === -1 ? bytes.length : newline + 1;
    const text = bytes.subarray(cursor, newline === -1 ? bytes.length : newline).toString("utf8");
    if (text.trim().length > 0)
      out.push({ text, offset: base + cursor, end: base + end, torn: newline === -1 });
    cursor = end;
  }
  return out;
}

/**
 * Applies every line that verifies: parses, content matches hash, signature by the identity's key (genesis, then each
 * adopt, which must be countersigned by the key it hands over to). A line that fails is skipped, not fatal: the next
 * record signed by the same key resumes the chain; what was skipped is reported for a quarantine record.
 */
export function foldLines(
  lines: ReturnType<typeof splitLedger>,
  start: { state: EvidenceState; head: Head },
  options: FoldOptions = {},
): FoldResult {
  const state = start.state;
  let head = { ...start.head };
  const bad: BadLine[] = [];
  const gaps: Array<[number, number]> = [];
  const accountedLines = new Set<string>();
  const accountedGaps = new Set<string>();
  for (const line of lines) {
    const fail = (reason: string, seq: number | null, legacy = false) => {
      bad.push({ offset: line.offset, seq, sha256: sha256Hex(line.text), reason, torn: line.torn, legacy });
    };
    const parsed = parseLine(line.text);
    if (!parsed.ok) {
      fail(
        line.torn ? "the last line is incomplete (torn write)" : parsed.problem,
        null,
        parsed.legacy === true,
      );
      continue;
    }
    const record = parsed.record;
    const key =
      state.identity?.publicKey ?? (record.kind === "genesis" ? String(record.data.publicKey ?? "") : "");
    const own = recordProblem(record, key);
    if (own) {
      fail(own, record.seq);
      continue;
    }
    if (record.kind === "genesis" && state.identity !== null) {
      fail(`record ${record.seq} is a second genesis record`, record.seq);
      continue;
    }
    const link = chainProblem(record, head);
    if (link) {
      if (record.seq <= head.seq + 1) {
        fail(
          record.seq <= head.seq ? `record ${record.seq} is out of order (after record ${head.seq})` : link,
          record.seq,
        );
        continue;
      }
      // Signed by our key and later in the sequence: resume, noting what is missing in between.
      gaps.push([head.seq + 1, record.seq - 1]);
    }
    if (record.kind === "adopt") {
      const next = String(record.data.publicKey ?? "");
      const counter = String(record.data.countersig ?? "");
      if (!verifySignature(next, adoptCountersignMessage(record.prev, next), counter)) {
        fail(`record ${record.seq} hands the ledger to a key that did not countersign it`, record.seq);
        continue;
      }
    }
    if (record.kind === "quarantine") {
      for (const h of Array.isArray(record.data.lines) ? record.data.lines : [])
        accountedLines.add(String(h));
      for (const g of Array.isArray(record.data.gaps) ? record.data.gaps : []) accountedGaps.add(String(g));
    }
    options.onRecord?.(record, state);
    applyRecord(state, record);
    head = { offset: line.end, seq: record.seq, hash: record.hash };
  }
  return {
    state,
    head,
    bad,
    gaps: gaps.filter(([a, b]) => b >= a),
    unaccounted: {
      bad: bad.filter((b) => !accountedLines.has(b.sha256)),
      gaps: gaps.filter(([a, b]) => b >= a && !accountedGaps.has(`${a}-${b}`)),
    },
  };
}

export interface ChainVerdict {
  ok: boolean;
  records: number;
  quarantined: number;
  problem?: string;
}

/** Folds a whole ledger from genesis: ok when every line verifies and no seq is missing. */
export function verifyChain(bytes: Buffer): ChainVerdict {
  const fold = foldLines(splitLedger(bytes), {
    state: emptyState(),
    head: { offset: 0, seq: 0, hash: GENESIS_HASH },
  });
  const { bad, gaps } = fold.unaccounted;
  const problem = bad[0]?.reason ?? (gaps[0] ? `records ${gaps[0][0]}-${gaps[0][1]} are missing` : undefined);
  const quarantined = fold.bad.length;
  return problem
    ? { ok: false, records: fold.head.seq, quarantined, problem }
    : { ok: true, records: fold.head.seq, quarantined };
}
