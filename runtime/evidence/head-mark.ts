// The ledger head kept outside the workspace (beside the identity), and the pure rule that tells a restored older ledger.
//
// Order (why a crash never bricks a workspace): records are appended to ledger.jsonl first, then the mark is moved to the
// new head, then the checkpoint is written. A crash between the append and the mark leaves the ledger *ahead* of the
// mark, which is accepted (and the mark catches up); only a ledger *behind* the mark, or one whose record at the
// mark's seq has another hash, is an older copy put back.
import { chmod, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { SkillgateError } from "../errors.js";
import { type StagedFile, stageFileAtomic, writeFileAtomic } from "../workspace/index.js";
import { readHomeFile } from "./identity.js";

export interface HeadMark {
  version: 1;
  /** The init the mark belongs to (a mark of an earlier init says nothing about this ledger). */
  initId: string;
  seq: number;
  hash: string;
  updatedAt: string;
}

/** What the load saw of the ledger, for the rollback rule. */
export interface SeenChain {
  /** Seq and hash of the last trusted record. */
  head: { seq: number; hash: string };
  /** Highest seq of any line, trusted or not (an edited tail is tampering, handled by quarantine, not rollback). */
  maxSeq: number;
  /** Hash of the trusted record at the mark's seq, when the load saw it (null: not seen or not trusted). */
  hashAtMark: string | null;
}

export type RollbackVerdict =
  | { ok: true; advance: boolean }
  | { ok: false; kind: "shorter" | "divergent"; expected: { seq: number; hash: string } };

/** Pure: is the chain that was loaded the one the mark recorded (or a continuation of it)? */
export function rollbackVerdict(mark: HeadMark | null, initId: string, seen: SeenChain): RollbackVerdict {
  if (mark === null || mark.initId !== initId) return { ok: true, advance: true };
  const expected = { seq: mark.seq, hash: mark.hash };
  if (seen.maxSeq < mark.seq) return { ok: false, kind: "shorter", expected };
  if (seen.hashAtMark !== null && seen.hashAtMark !== mark.hash)
    return { ok: false, kind: "divergent", expected };
  return { ok: true, advance: seen.head.seq !== mark.seq || seen.head.hash !== mark.hash };
}

export function rollbackError(
  verdict: Extract<RollbackVerdict, { ok: false }>,
  found: { seq: number; hash: string },
  where: { root: string; ledger: string; headFile: string },
): SkillgateError {
  const exp = `record ${verdict.expected.seq} (hash ${verdict.expected.hash.slice(0, 12)})`;
  const got = `record ${found.seq} (hash ${found.hash.slice(0, 12)})`;
  const what =
    verdict.kind === "shorter"
      ? `ends at ${got}, but this init's ledger already reached ${exp}`
      : `holds another record at seq ${verdict.expected.seq} than this init's ledger (${exp}); it ends at ${got}`;
  return new SkillgateError(
    "LEDGER_ROLLBACK",
    `The evidence ledger ${where.ledger} ${what}: an older copy of ledger.jsonl/progress.json was put back, so its progress is refused as a rollback. Nothing was changed. Put back the newer ledger.jsonl and progress.json; or, to continue from this older copy on purpose (the later records are lost), delete ${where.headFile}.`,
    {
      expected_seq: verdict.expected.seq,
      expected_hash: verdict.expected.hash,
      found_seq: found.seq,
      found_hash: found.hash,
      head_file: where.headFile,
      kind: verdict.kind,
    },
  );
}

/** The mark, or null when there is none (first run after an upgrade, or the home was reset). */
export async function readHeadMark(file: string): Promise<HeadMark | null> {
  const text = await readHomeFile(file, "the ledger head");
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as HeadMark;
    if (
      parsed.version === 1 &&
      typeof parsed.initId === "string" &&
      Number.isSafeInteger(parsed.seq) &&
      typeof parsed.hash === "string"
    )
      return parsed;
  } catch {
    // reported below
  }
  throw new SkillgateError(
    "LEDGER_KEY_MISMATCH",
    `the ledger head ${file} is not valid JSON of skillgate; it was edited outside skillgate. Restore it from a backup, or delete it to trust the workspace's ledger as it is (nothing in the workspace was changed).`,
    { file },
  );
}

export async function writeHeadMark(file: string, mark: HeadMark): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(mark)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

/** The mark's new bytes written and synced beside it; the rename comes once the records it names are durable. */
export async function stageHeadMark(file: string, mark: HeadMark): Promise<StagedFile> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  return stageFileAtomic(file, `${JSON.stringify(mark)}\n`, { mode: 0o600 });
}
