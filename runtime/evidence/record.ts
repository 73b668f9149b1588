// One ledger record: its fields, how its hash chains the previous record, and how it is signed and verified.
import { timingSafeEqual } from "node:crypto";
import { canonicalJson, hmacHex, sha256Hex } from "./canonical.js";

export const GENESIS_HASH = "0".repeat(64);

export type RecordKind =
  | "stage_enter"
  | "list"
  | "read"
  | "use"
  | "check"
  | "check_reset"
  | "set_skill_usage"
  | "complete";

export interface LedgerRecord {
  seq: number;
  /** ISO time of the append. */
  time: string;
  /** Stage index the record belongs to. */
  stage: number;
  kind: RecordKind;
  data: Record<string, unknown>;
  /** Hash of the previous record (GENESIS_HASH for the first). */
  prev: string;
  /** sha256 of the canonical JSON of seq, time, stage, kind, data, prev. */
  hash: string;
  /** HMAC-SHA256 of `hash` with the workspace key. */
  sig: string;
}

export type UnsignedRecord = Pick<LedgerRecord, "stage" | "kind" | "data">;

export function recordHash(record: Omit<LedgerRecord, "hash" | "sig">): string {
  const { seq, time, stage, kind, data, prev } = record;
  return sha256Hex(canonicalJson({ seq, time, stage, kind, data, prev }));
}

export function sealRecord(
  draft: UnsignedRecord,
  previous: { seq: number; hash: string },
  time: string,
  key: Buffer,
): LedgerRecord {
  const body = {
    seq: previous.seq + 1,
    time,
    stage: draft.stage,
    kind: draft.kind,
    data: draft.data,
    prev: previous.hash,
  };
  const hash = recordHash(body);
  return { ...body, hash, sig: hmacHex(key, `record:${hash}`) };
}

const KINDS = new Set<string>([
  "stage_enter",
  "list",
  "read",
  "use",
  "check",
  "check_reset",
  "set_skill_usage",
  "complete",
]);

/** Why a ledger line is not trustworthy, or null when it parses, chains after `previous` and carries a valid signature. */
export function verifyLine(
  line: string,
  previous: { seq: number; hash: string },
  key: Buffer,
): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return "the line is not valid JSON (torn write or hand edit)";
  }
  if (!isRecordShape(parsed)) return "the line is not a ledger record (fields missing or of the wrong type)";
  if (parsed.prev !== previous.hash)
    return `record ${parsed.seq} does not chain to the previous record's hash`;
  if (parsed.seq !== previous.seq + 1)
    return `record ${parsed.seq} breaks the sequence (expected ${previous.seq + 1})`;
  if (recordHash(parsed) !== parsed.hash)
    return `record ${parsed.seq} content does not match its hash (edited)`;
  if (!equalHex(hmacHex(key, `record:${parsed.hash}`), parsed.sig))
    return `record ${parsed.seq} has a bad signature`;
  return null;
}

export function isRecordShape(value: unknown): value is LedgerRecord {
  if (value === null || typeof value !== "object") return false;
  const r = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(r.seq) &&
    typeof r.time === "string" &&
    Number.isSafeInteger(r.stage) &&
    typeof r.kind === "string" &&
    KINDS.has(r.kind) &&
    r.data !== null &&
    typeof r.data === "object" &&
    !Array.isArray(r.data) &&
    typeof r.prev === "string" &&
    typeof r.hash === "string" &&
    typeof r.sig === "string"
  );
}

export function equalHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
