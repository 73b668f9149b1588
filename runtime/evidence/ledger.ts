// The append-only, hash-chained, signed evidence ledger plus its signed checkpoint (progress file) for O(1) loads.
//
// Design (why it is shaped this way):
// - ledger.jsonl: one JSON record per line {seq, time, stage, kind, data, prev, hash, sig}; hash = sha256 of the
//   canonical record body (which includes prev, chaining every record to the one before); sig = HMAC-SHA256 of hash
//   with a per-workspace key derived from <skillgateHome()>/ledger.key, so the agent (which cannot read the key)
//   can neither forge nor move records between workspaces.
// - progress.json is a signed checkpoint {ledger: {offset, seq, hash}, state}: the evidence state folded from every
//   record up to offset. A load verifies the checkpoint signature, that the record ending at offset has the
//   checkpoint's hash (ledger not rewritten), then verifies and folds only the records after offset.
// - Drop policy: the first record after the checkpoint that is unparsable, breaks the chain or has a bad signature is
//   dropped together with every record after it (they chain from it), the dropped bytes are moved to
//   ledger.rejected-<time>.jsonl and the ledger is truncated, so later appends chain from the last good record. The
//   caller gets a warning. A bad checkpoint is discarded and the state rebuilt from the ledger (same rules).
// - Records already covered by a valid checkpoint are not re-verified on the fast path: their effect is frozen in
//   the signed state, so editing them changes nothing (verifyAll() still reports it).
import { mkdir, open, readFile, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { withWorkspaceLock, writeFileAtomic } from "../workspace/index.js";
import type { WorkspacePaths } from "../workspace/paths.js";
import { canonicalJson, hmacHex } from "./canonical.js";
import { loadMasterKey, workspaceKey } from "./key.js";
import {
  equalHex,
  GENESIS_HASH,
  isRecordShape,
  type LedgerRecord,
  sealRecord,
  type UnsignedRecord,
  verifyLine,
} from "./record.js";
import { applyRecord, type EvidenceState, emptyState } from "./state.js";

export interface LedgerHead {
  /** Byte length of the ledger covered so far. */
  offset: number;
  seq: number;
  hash: string;
}

export interface LedgerSnapshot {
  state: EvidenceState;
  head: LedgerHead;
  /** Problems found while loading (tampering, torn writes); the affected evidence was dropped. */
  warnings: string[];
}

interface Checkpoint {
  version: 1;
  ledger: LedgerHead;
  state: EvidenceState;
  sig: string;
}

export interface LedgerDeps {
  /** Folder holding ledger.key (defaults to skillgateHome()). */
  home?: string;
  now?: () => Date;
  lock?: <T>(paths: WorkspacePaths, fn: () => Promise<T>) => Promise<T>;
  writeAtomic?: (path: string, data: string) => Promise<void>;
  /** Rewrite the checkpoint once this many records accumulated after it (default 32). */
  checkpointEvery?: number;
}

/** What a transaction body returns: records to append (may be empty) and a value handed back to the caller. */
export interface TransactionStep<T> {
  records: UnsignedRecord[];
  result: T;
}

/**
 * The checkpoint is written with the first record, then rewritten (fsync'd) every 32 records or 64 KiB of ledger
 * and whenever a stage completes: loads
 * verify at most that much tail, so a call costs the same with 100 or 100,000 records, and most calls avoid an fsync.
 */
const CHECKPOINT_EVERY_RECORDS = 32;
const CHECKPOINT_EVERY_BYTES = 64 * 1024;
const ANCHOR_FIRST_WINDOW = 16 * 1024;
const ANCHOR_MAX_WINDOW = 4 * 1024 * 1024;

type LoadedLedger = { snapshot: LedgerSnapshot; dirty: boolean; checkpoint: LedgerHead };

/** Identity of a file's current content as far as the kernel tells: ctime cannot be set back by a user. */
async function fileIdentity(path: string): Promise<string> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return "missing";
  }
}

export class EvidenceLedger {
  private key: Buffer | null = null;
  /**
   * The last clean load, keyed by the identity of ledger + checkpoint when it started: a repeated read of unchanged
   * files (ListSkill, Status, a no-op recordList) skips re-verifying the checkpoint and tail. Any write, ours or an
   * agent's, changes the identity, so the next load verifies again.
   */
  private lastLoad: { identity: string; loaded: LoadedLedger } | null = null;
  private readonly now: () => Date;
  private readonly lock: NonNullable<LedgerDeps["lock"]>;
  private readonly writeAtomic: NonNullable<LedgerDeps["writeAtomic"]>;

  constructor(
    readonly paths: WorkspacePaths,
    private readonly deps: LedgerDeps = {},
  ) {
    this.now = deps.now ?? (() => new Date());
    this.lock = deps.lock ?? withWorkspaceLock;
    this.writeAtomic = deps.writeAtomic ?? ((path, data) => writeFileAtomic(path, data));
  }

  /** Loads the current state under the workspace lock (verifying only records after the checkpoint). */
  async read(): Promise<LedgerSnapshot> {
    const unchanged = await this.readUnchanged();
    if (unchanged) return unchanged;
    return (await this.transact(() => ({ records: [], result: undefined }))).snapshot;
  }

  /**
   * The state of the last clean load when neither file changed since (no lock needed: what was verified is still
   * what is on disk, and a writer mid-append has already changed the size); null when a full load is needed.
   */
  async readUnchanged(): Promise<LedgerSnapshot | null> {
    if (!this.lastLoad) return null;
    const identity = await this.identity();
    return this.lastLoad?.identity === identity ? structuredClone(this.lastLoad.loaded.snapshot) : null;
  }

  private async identity(): Promise<string> {
    return `${await fileIdentity(this.paths.ledger)}|${await fileIdentity(this.paths.progress)}`;
  }

  /**
   * Runs `body` on a freshly loaded state under the workspace lock, appends the records it returns (chained after
   * the real tail, whatever other processes appended) and writes the new checkpoint.
   */
  async transact<T>(
    body: (snapshot: LedgerSnapshot) => TransactionStep<T> | Promise<TransactionStep<T>>,
  ): Promise<{ snapshot: LedgerSnapshot; result: T; appended: LedgerRecord[] }> {
    await mkdir(this.paths.skillgateDir, { recursive: true });
    const key = await this.signingKey();
    return this.lock(this.paths, async () => {
      const loaded = await this.load(key).catch((error: unknown) => {
        if (isSkillgateError(error)) throw error;
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw new SkillgateError(
          "LEDGER_TAMPERED",
          `cannot read the evidence state in ${this.paths.skillgateDir} (${code}); move ${this.paths.ledger} and ${this.paths.progress} aside (evidence will have to be collected again) and retry`,
          { ledger: this.paths.ledger },
        );
      });
      const step = await body(loaded.snapshot);
      const appended: LedgerRecord[] = [];
      let head = loaded.snapshot.head;
      const time = this.now().toISOString();
      for (const draft of step.records) {
        const record = sealRecord(draft, head, time, key);
        appended.push(record);
        applyRecord(loaded.snapshot.state, record);
        head = { offset: head.offset, seq: record.seq, hash: record.hash };
      }
      if (appended.length > 0) {
        const text = `${appended.map((r) => JSON.stringify(r)).join("\n")}\n`;
        await writeFile(this.paths.ledger, text, { flag: "a" });
        head = { ...head, offset: head.offset + Buffer.byteLength(text) };
      }
      loaded.snapshot.head = head;
      const behind = head.seq - loaded.checkpoint.seq;
      const behindBytes = head.offset - loaded.checkpoint.offset;
      const advanced = appended.some((r) => r.kind === "complete" && r.data.passed === true);
      const every = this.deps.checkpointEvery ?? CHECKPOINT_EVERY_RECORDS;
      const first = loaded.checkpoint.seq === 0 && head.seq > 0;
      if (loaded.dirty || first || advanced || behind >= every || behindBytes >= CHECKPOINT_EVERY_BYTES) {
        await this.writeCheckpoint(key, head, loaded.snapshot.state);
      }
      return { snapshot: loaded.snapshot, result: step.result, appended };
    });
  }

  /** Verifies the whole ledger from the first record (slow path; used by tests and `status --verify`). */
  async verifyAll(): Promise<{ ok: boolean; records: number; problem?: string }> {
    const key = await this.signingKey();
    const text = await readFile(this.paths.ledger, "utf8").catch(() => "");
    let previous = { seq: 0, hash: GENESIS_HASH };
    let count = 0;
    for (const line of text.split("\n")) {
      if (line.length === 0) continue;
      const problem = verifyLine(line, previous, key);
      if (problem) return { ok: false, records: count, problem };
      const record = JSON.parse(line) as LedgerRecord;
      previous = { seq: record.seq, hash: record.hash };
      count += 1;
    }
    return { ok: true, records: count };
  }

  private async signingKey(): Promise<Buffer> {
    if (!this.key) this.key = workspaceKey(await loadMasterKey(this.deps.home), this.paths.root);
    return this.key;
  }

  /**
   * Checkpoint, then verify and fold only the records after it. `dirty` asks for a new checkpoint now (recovery
   * happened); otherwise the caller refreshes the checkpoint once the unverified tail grows past a bound.
   */
  private async load(key: Buffer): Promise<LoadedLedger> {
    const identity = await this.identity();
    if (this.lastLoad?.identity === identity) return structuredClone(this.lastLoad.loaded);
    const loaded = await this.loadAndVerify(key);
    this.lastLoad = loaded.dirty ? null : { identity, loaded: structuredClone(loaded) };
    return loaded;
  }

  private async loadAndVerify(key: Buffer): Promise<LoadedLedger> {
    const warnings: string[] = [];
    const size = await stat(this.paths.ledger).then(
      (s) => s.size,
      () => 0,
    );
    let start = await this.readCheckpoint(key, warnings);
    if (start && start.ledger.offset > size) {
      warnings.push(
        `the evidence ledger ${this.paths.ledger} is shorter than its signed checkpoint (truncated or replaced); state was rebuilt from the records that remain`,
      );
      start = null;
    }
    if (start && start.ledger.offset > 0 && !(await this.anchorMatches(start.ledger))) {
      warnings.push(
        `the evidence ledger ${this.paths.ledger} no longer matches its signed checkpoint (rewritten); state was rebuilt from the records that verify`,
      );
      start = null;
    }
    let dirty = false;
    const checkpoint = start?.ledger ?? { offset: 0, seq: 0, hash: GENESIS_HASH };
    const state = start?.state ?? emptyState();
    let head: LedgerHead = start?.ledger ?? { offset: 0, seq: 0, hash: GENESIS_HASH };
    if (size > head.offset) {
      const tail = await readRange(this.paths.ledger, head.offset, size);
      let position = head.offset;
      let cursor = 0;
      while (cursor < tail.length) {
        const newline = tail.indexOf(10, cursor);
        const end = newline === -1 ? tail.length : newline;
        const line = tail.subarray(cursor, end).toString("utf8");
        const lineBytes = end - cursor + (newline === -1 ? 0 : 1);
        if (line.trim().length === 0) {
          cursor += lineBytes;
          position += lineBytes;
          continue;
        }
        const problem =
          newline === -1 ? "the last line is incomplete (torn write)" : verifyLine(line, head, key);
        if (problem) {
          const dropped = await this.quarantine(position, size);
          warnings.push(
            `evidence ledger ${this.paths.ledger}: ${problem}; that record and the ${dropped.after} after it were dropped (kept in ${dropped.file}). Evidence they carried must be collected again (ListSkill, ReadTextFile, RunSkillScript, Check).`,
          );
          dirty = true;
          break;
        }
        const record = JSON.parse(line) as LedgerRecord;
        applyRecord(state, record);
        position += lineBytes;
        cursor += lineBytes;
        head = { offset: position, seq: record.seq, hash: record.hash };
      }
    }
    return { snapshot: { state, head, warnings }, dirty: dirty || warnings.length > 0, checkpoint };
  }

  private async readCheckpoint(key: Buffer, warnings: string[]): Promise<Checkpoint | null> {
    let text: string;
    try {
      text = await readFile(this.paths.progress, "utf8");
    } catch {
      return null;
    }
    try {
      const parsed = JSON.parse(text) as Checkpoint;
      if (parsed?.version === 1 && parsed.ledger && parsed.state && typeof parsed.sig === "string") {
        if (equalHex(checkpointSig(key, parsed.ledger, parsed.state), parsed.sig)) return parsed;
      }
    } catch {
      // fall through to the warning: an unreadable checkpoint is treated like a forged one
    }
    warnings.push(
      `the progress checkpoint ${this.paths.progress} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
    );
    return null;
  }

  /** Does the record ending at the checkpoint offset carry the checkpoint's hash? Reads only the last line. */
  private async anchorMatches(head: LedgerHead): Promise<boolean> {
    let window = ANCHOR_FIRST_WINDOW;
    let bytes: Buffer;
    let previousNewline: number;
    for (;;) {
      const from = Math.max(0, head.offset - window);
      bytes = await readRange(this.paths.ledger, from, head.offset);
      if (bytes[bytes.length - 1] !== 10) return false;
      previousNewline = bytes.lastIndexOf(10, bytes.length - 2);
      if (previousNewline !== -1 || from === 0) break;
      if (window >= ANCHOR_MAX_WINDOW) return false;
      window *= 4;
    }
    try {
      const parsed: unknown = JSON.parse(
        bytes.subarray(previousNewline + 1, bytes.length - 1).toString("utf8"),
      );
      return isRecordShape(parsed) && parsed.hash === head.hash && parsed.seq === head.seq;
    } catch {
      return false;
    }
  }

  private async quarantine(from: number, size: number): Promise<{ file: string; after: number }> {
    const bytes = await readRange(this.paths.ledger, from, size);
    const stamp = this.now().toISOString().replace(/[:.]/g, "-");
    const file = join(this.paths.skillgateDir, `ledger.rejected-${stamp}-${process.pid}.jsonl`);
    await writeFile(file, bytes);
    await truncate(this.paths.ledger, from);
    const lines = bytes
      .toString("utf8")
      .split("\n")
      .filter((l) => l.trim().length > 0).length;
    return { file, after: Math.max(0, lines - 1) };
  }

  private async writeCheckpoint(key: Buffer, head: LedgerHead, state: EvidenceState): Promise<void> {
    const checkpoint: Checkpoint = { version: 1, ledger: head, state, sig: checkpointSig(key, head, state) };
    await this.writeAtomic(this.paths.progress, `${JSON.stringify(checkpoint)}\n`);
  }
}

function checkpointSig(key: Buffer, head: LedgerHead, state: EvidenceState): string {
  return hmacHex(key, `checkpoint:${canonicalJson({ ledger: head, state })}`);
}

async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const length = Math.max(0, to - from);
  const buffer = Buffer.alloc(length);
  if (length === 0) return buffer;
  const handle = await open(file, "r");
  try {
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}
