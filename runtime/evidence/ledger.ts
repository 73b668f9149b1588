// The append-only, hash-chained, Ed25519-signed evidence ledger plus its signed checkpoint (progress file) for O(1) loads.
//
// Design (why it is shaped this way):
// - ledger.jsonl: one record per line (record.ts). The first record (genesis) names the workspace, the init's random
//   id and the public key; the key is derived from a master secret outside the workspace, the path and the init id
//   (keys.ts), so a ledger from another workspace, home or an earlier init never verifies as this one's.
// - progress.json is a signed checkpoint {ledger: {offset, seq, hash}, state}: a load verifies its signature, that the
//   record ending at offset has its hash, then verifies and folds only the records after it.
// - Nothing is discarded: a line that fails its own check stays in the file, is skipped, and a signed `quarantine`
//   record notes it (and resets the current stage's evidence, since what it carried is unknown). A key or identity
//   mismatch is not tampering: the load refuses with what was expected and the fix, touching nothing.
// - Appends are undone (truncated back) when the write fails, so a full disk never leaves a torn record; disk-full
//   and permission errors keep their own codes.
import { mkdir, open, readFile, stat, truncate } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { ioError, withWorkspaceLock, writeFileAtomic } from "../workspace/index.js";
import { canonicalJson } from "./canonical.js";
import { adoptCountersignMessage, type BadLine, foldLines, type Head, splitLedger } from "./fold.js";
import { rollbackError, rollbackVerdict } from "./head-mark.js";
import { newInitId } from "./identity.js";
import { checkIdentity, type LedgerKeys, localKeys } from "./keys.js";
import { evidenceLocations } from "./locations.js";
import { GENESIS_HASH, type LedgerRecord, parseLine, sealRecord, type UnsignedRecord } from "./record.js";
import { type LedgerSigner, verifySignature } from "./signer.js";
import { applyRecord, type EvidenceState, emptyState, type LedgerIdentity } from "./state.js";

export type LedgerHead = Head;

export interface LedgerSnapshot {
  state: EvidenceState;
  head: LedgerHead;
  /** Problems found while loading (tampering, torn writes); the affected evidence was not applied. */
  warnings: string[];
}

interface Checkpoint {
  version: 2;
  ledger: LedgerHead;
  state: EvidenceState;
  sig: string;
}

export interface LedgerDeps {
  /** Folder holding ledger.key and the workspace identities (defaults to skillgateHome()). */
  home?: string;
  /** The key holder (default: derived from the master key in `home`). */
  keys?: LedgerKeys;
  now?: () => Date;
  lock?: <T>(paths: WorkspacePaths, fn: () => Promise<T>) => Promise<T>;
  writeAtomic?: (path: string, data: string) => Promise<void>;
  /** Rewrite the checkpoint once this many records accumulated after it (default 32). */
  checkpointEvery?: number;
}

export interface TransactionStep<T> {
  records: UnsignedRecord[];
  result: T;
}

const CHECKPOINT_EVERY_RECORDS = 32;
const CHECKPOINT_EVERY_BYTES = 64 * 1024;
const ANCHOR_FIRST_WINDOW = 16 * 1024;
const ANCHOR_MAX_WINDOW = 4 * 1024 * 1024;

type LoadedLedger = {
  snapshot: LedgerSnapshot;
  dirty: boolean;
  checkpoint: LedgerHead;
  signer: LedgerSigner | null;
  /** Records the load itself must append first (genesis of a new ledger, a quarantine note). */
  pending: UnsignedRecord[];
  /** The file does not end with a newline (torn last line): appends start with one. */
  needsNewline: boolean;
  /** The head mark outside the workspace is missing or behind this ledger (first run, or a crash after an append). */
  markBehind: boolean;
};

async function fileIdentity(path: string): Promise<string> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return "missing";
  }
}

export class EvidenceLedger {
  private lastLoad: { identity: string; loaded: LoadedLedger } | null = null;
  private readonly now: () => Date;
  private readonly lock: NonNullable<LedgerDeps["lock"]>;
  private readonly writeAtomic: NonNullable<LedgerDeps["writeAtomic"]>;
  readonly keys: LedgerKeys;

  constructor(
    readonly paths: WorkspacePaths,
    private readonly deps: LedgerDeps = {},
  ) {
    this.now = deps.now ?? (() => new Date());
    this.lock = deps.lock ?? withWorkspaceLock;
    this.writeAtomic = deps.writeAtomic ?? ((path, data) => writeFileAtomic(path, data));
    this.keys = deps.keys ?? localKeys(evidenceLocations(paths, deps.home));
  }

  async read(): Promise<LedgerSnapshot> {
    const unchanged = await this.readUnchanged();
    if (unchanged) return unchanged;
    return (await this.transact(() => ({ records: [], result: undefined }))).snapshot;
  }

  async readUnchanged(): Promise<LedgerSnapshot | null> {
    if (!this.lastLoad) return null;
    const identity = await this.identity();
    return this.lastLoad?.identity === identity ? structuredClone(this.lastLoad.loaded.snapshot) : null;
  }

  private async identity(): Promise<string> {
    return `${await fileIdentity(this.paths.ledger)}|${await fileIdentity(this.paths.progress)}`;
  }

  /** Runs `body` on a freshly loaded state under the workspace lock and appends the records it returns. */
  async transact<T>(
    body: (snapshot: LedgerSnapshot) => TransactionStep<T> | Promise<TransactionStep<T>>,
  ): Promise<{ snapshot: LedgerSnapshot; result: T; appended: LedgerRecord[] }> {
    await mkdir(this.paths.skillgateDir, { recursive: true }).catch((error) => {
      throw ioError(error, "create the state folder", this.paths.skillgateDir);
    });
    return this.lock(this.paths, async () => {
      const loaded = await this.load();
      const step = await body(loaded.snapshot);
      const appended = await this.append(loaded, [...loaded.pending, ...step.records]);
      return { snapshot: loaded.snapshot, result: step.result, appended };
    }).catch((error: unknown) => {
      // The lock lives in the state folder too: a read-only or full folder must say so, not crash.
      throw isSkillgateError(error) ? error : ioError(error, "lock", this.paths.lockFile);
    });
  }

  /** Re-signs a ledger moved or copied from another path of this home (`init --adopt`); recorded as an adopt record. */
  async adopt(): Promise<{ from: LedgerIdentity; to: LedgerIdentity; snapshot: LedgerSnapshot }> {
    await mkdir(this.paths.skillgateDir, { recursive: true });
    return this.lock(this.paths, async () => {
      const loaded = await this.load({ adopting: true });
      const from = loaded.snapshot.state.identity;
      if (!from || !loaded.signer)
        throw new SkillgateError("LEDGER_TAMPERED", "there is no ledger to adopt", {});
      const initId = newInitId();
      const next = await this.keys.signerFor(this.paths.root, initId);
      const to: LedgerIdentity = {
        workspace: this.paths.root,
        initId,
        publicKey: next.publicKey,
        fingerprint: next.fingerprint,
        home: this.keys.home,
      };
      const data = {
        ...to,
        from: { workspace: from.workspace, initId: from.initId, fingerprint: from.fingerprint },
        countersig: next.sign(adoptCountersignMessage(loaded.snapshot.head.hash, next.publicKey)),
      };
      await this.append(loaded, [
        ...loaded.pending,
        { stage: loaded.snapshot.state.stageIndex, kind: "adopt", data },
      ]);
      await this.keys.writeIdentity({ version: 1, ...to, createdAt: this.now().toISOString() });
      await this.writePublicKey(to);
      return { from, to, snapshot: loaded.snapshot };
    });
  }

  private async append(loaded: LoadedLedger, drafts: UnsignedRecord[]): Promise<LedgerRecord[]> {
    const appended: LedgerRecord[] = [];
    const snapshot = loaded.snapshot;
    let head = snapshot.head;
    const time = this.now().toISOString();
    let signer = loaded.signer;
    for (const draft of drafts) {
      if (!signer) throw new SkillgateError("INTERNAL", "no signer for the ledger", {});
      const record = sealRecord(draft, head, time, signer);
      appended.push(record);
      applyRecord(snapshot.state, record);
      head = { offset: head.offset, seq: record.seq, hash: record.hash };
      if (record.kind === "adopt" || record.kind === "genesis")
        signer = await this.keys.signerFor(String(record.data.workspace), String(record.data.initId));
    }
    if (appended.length > 0) {
      const prefix = loaded.needsNewline ? "\n" : "";
      const text = `${prefix}${appended.map((r) => JSON.stringify(r)).join("\n")}\n`;
      const before = await stat(this.paths.ledger).then(
        (s) => s.size,
        () => 0,
      );
      try {
        // Synced before the head mark moves: the mark must never get ahead of durable records (a crash then
        // leaves the ledger ahead of the mark, which loads; never behind it, which would read as a rollback).
        await appendSynced(this.paths.ledger, text);
      } catch (error) {
        // Undo a partial append so the ledger never holds a torn record; the evidence was not recorded.
        await truncate(this.paths.ledger, before).catch(() => undefined);
        this.lastLoad = null;
        throw ioError(error, "append to the evidence ledger", this.paths.ledger);
      }
      head = { ...head, offset: before + Buffer.byteLength(text) };
      loaded.needsNewline = false;
    }
    snapshot.head = head;
    loaded.signer = signer;
    if (appended.length > 0 || loaded.markBehind) await this.moveMark(loaded, head);
    let wrote = appended.length > 0;
    const behind = head.seq - loaded.checkpoint.seq;
    const behindBytes = head.offset - loaded.checkpoint.offset;
    const advanced = appended.some(
      (r) => (r.kind === "complete" && r.data.passed === true) || r.kind === "bind",
    );
    const every = this.deps.checkpointEvery ?? CHECKPOINT_EVERY_RECORDS;
    const first = loaded.checkpoint.seq === 0 && head.seq > 0;
    if (
      signer &&
      (loaded.dirty || first || advanced || behind >= every || behindBytes >= CHECKPOINT_EVERY_BYTES)
    ) {
      wrote = true;
      try {
        await this.writeCheckpoint(signer, head, snapshot.state);
      } catch (error) {
        // The records are safely appended; without a checkpoint loads only verify a longer tail.
        snapshot.warnings.push(
          `the progress checkpoint ${this.paths.progress} could not be written (${ioError(error, "write", this.paths.progress).code}); evidence is recorded in the ledger, loads are slower until it can be written`,
        );
      }
    }
    if (wrote) this.lastLoad = null;
    return appended;
  }

  /** Moves the head mark outside the workspace to `head` (after the records are durable, under the lock). */
  private async moveMark(loaded: LoadedLedger, head: LedgerHead): Promise<void> {
    const identity = loaded.snapshot.state.identity;
    if (!identity || head.seq === 0) return;
    try {
      await this.keys.writeHead({
        version: 1,
        initId: identity.initId,
        seq: head.seq,
        hash: head.hash,
        updatedAt: this.now().toISOString(),
      });
      loaded.markBehind = false;
    } catch (error) {
      loaded.snapshot.warnings.push(
        `the ledger head ${this.keys.headFile} could not be written (${ioError(error, "write", this.keys.headFile).code}); evidence is recorded, but a restored older ledger copy is not detected until it can be written`,
      );
    }
  }

  /** Verifies the whole ledger from genesis (slow path; tests, status and `skillgate verify` use the proof verifier). */
  async verifyAll(): Promise<{ ok: boolean; records: number; quarantined: number; problem?: string }> {
    const bytes = await readFile(this.paths.ledger).catch(() => Buffer.alloc(0));
    const fold = foldLines(splitLedger(bytes), { state: emptyState(), head: zeroHead() });
    const { bad, gaps } = fold.unaccounted;
    const problem =
      bad[0]?.reason ?? (gaps[0] ? `records ${gaps[0][0]}-${gaps[0][1]} are missing` : undefined);
    const quarantined = fold.bad.length;
    return problem
      ? { ok: false, records: fold.head.seq, quarantined, problem }
      : { ok: true, records: fold.head.seq, quarantined };
  }

  private async load(options: { adopting?: boolean } = {}): Promise<LoadedLedger> {
    const fileId = await this.identity();
    if (!options.adopting && this.lastLoad?.identity === fileId) return cloneLoaded(this.lastLoad.loaded);
    const loaded = await this.loadAndVerify(options).catch((error: unknown) => {
      if (isSkillgateError(error)) throw error;
      throw ioError(error, "read the evidence state in", this.paths.skillgateDir);
    });
    const cacheable = !loaded.dirty && loaded.pending.length === 0 && !loaded.markBehind && !options.adopting;
    this.lastLoad = cacheable ? { identity: fileId, loaded: cloneLoaded(loaded) } : null;
    return loaded;
  }

  private async loadAndVerify(options: { adopting?: boolean }): Promise<LoadedLedger> {
    const info = await stat(this.paths.ledger).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    if (info?.isDirectory())
      throw new SkillgateError(
        "LEDGER_TAMPERED",
        `the evidence ledger ${this.paths.ledger} is a folder, not a file; move it aside and retry (a new ledger is started)`,
        { ledger: this.paths.ledger },
      );
    const size = info?.size ?? 0;
    if (size === 0) {
      const progress = await stat(this.paths.progress).catch(() => null);
      if (progress && progress.size > 0)
        throw new SkillgateError(
          "LEDGER_TAMPERED",
          `the evidence ledger ${this.paths.ledger} is ${info ? "empty" : "missing"} but the progress checkpoint ${this.paths.progress} records signed progress: the ledger was deleted or truncated. Nothing was changed. Restore ledger.jsonl from a backup, or move progress.json aside to start a new ledger (the stages must then be completed again).`,
          { ledger: this.paths.ledger, progress: this.paths.progress },
        );
      return this.fresh();
    }
    const warnings: string[] = [];
    let start = await this.readCheckpoint(warnings);
    if (start) {
      const claimed = start.state.identity!;
      const derived = await this.keys.signerFor(claimed.workspace, claimed.initId).catch(() => null);
      if (derived?.publicKey !== claimed.publicKey) {
        warnings.push(
          `the progress checkpoint ${this.paths.progress} is signed by a key that is not this workspace's (forged); state was rebuilt from the signed ledger`,
        );
        start = null;
      }
    }
    if (start && start.ledger.offset > size) {
      warnings.push(
        `the evidence ledger ${this.paths.ledger} is shorter than its signed checkpoint (truncated or replaced); state was rebuilt from the records that remain`,
      );
      start = null;
    }
    if (start && !(await this.anchorMatches(start.ledger))) {
      warnings.push(
        `the evidence ledger ${this.paths.ledger} no longer matches its signed checkpoint (rewritten); state was rebuilt from the records that verify`,
      );
      start = null;
    }
    const from = start?.ledger ?? zeroHead();
    const bytes = await readRange(this.paths.ledger, from.offset, size);
    const lines = splitLedger(bytes, from.offset);
    if (!start) {
      const first = lines[0] ? parseLine(lines[0].text) : null;
      if (first && !first.ok && first.legacy) throw this.legacyRefusal();
      if (!first?.ok || first.record.kind !== "genesis")
        throw new SkillgateError(
          "LEDGER_TAMPERED",
          `the first record of the evidence ledger ${this.paths.ledger} is not a readable genesis record, so it cannot be told which key signed it. Nothing was changed. Restore the file from a backup, or move ledger.jsonl and progress.json aside to start a new ledger.`,
          { ledger: this.paths.ledger },
        );
    }
    const mark = await this.keys.readHead();
    let hashAtMark = mark && mark.seq === from.seq ? from.hash : null;
    const fold = foldLines(
      lines,
      { state: start?.state ?? emptyState(), head: from },
      {
        onRecord: (record) => {
          if (record.seq === mark?.seq) hashAtMark = record.hash;
        },
      },
    );
    const identity = fold.state.identity;
    if (!identity)
      throw new SkillgateError(
        "LEDGER_TAMPERED",
        `the evidence ledger ${this.paths.ledger} has no valid genesis record`,
        {},
      );
    const signer = await checkIdentity(identity, this.paths.root, this.keys, options);
    const maxSeq = Math.max(fold.head.seq, ...fold.bad.map((b) => b.seq ?? 0));
    const rollback = rollbackVerdict(mark, identity.initId, { head: fold.head, maxSeq, hashAtMark });
    if (!rollback.ok)
      throw rollbackError(rollback, fold.head, {
        root: this.paths.root,
        ledger: this.paths.ledger,
        headFile: this.keys.headFile,
      });
    const pending: UnsignedRecord[] = [];
    const { bad, gaps } = fold.unaccounted;
    if (bad.length > 0 || gaps.length > 0) {
      warnings.push(describeQuarantine(this.paths.ledger, bad, gaps));
      pending.push({
        stage: fold.state.stageIndex,
        kind: "quarantine",
        data: {
          lines: bad.map((b) => b.sha256),
          offsets: bad.map((b) => b.offset),
          reasons: [
            ...bad.map((b) => b.reason),
            ...gaps.map(([a, b]) => `records ${a}-${b} are missing`),
          ].slice(0, 20),
          gaps: gaps.map(([a, b]) => `${a}-${b}`),
          reset: !bad.every((b) => b.torn) || gaps.length > 0,
        },
      });
    }
    const lastByte = size > 0 ? (await readRange(this.paths.ledger, size - 1, size))[0] : 10;
    return {
      snapshot: { state: fold.state, head: { ...fold.head, offset: size }, warnings },
      dirty: warnings.length > 0,
      checkpoint: start?.ledger ?? zeroHead(),
      signer,
      pending,
      needsNewline: lastByte !== 10,
      markBehind: rollback.ok && rollback.advance,
    };
  }

  /** A new ledger: a new init id for this workspace (an older ledger put back later is a replay) and its genesis. */
  private async fresh(): Promise<LoadedLedger> {
    const initId = newInitId();
    const signer = await this.keys.signerFor(this.paths.root, initId);
    const identity: LedgerIdentity = {
      workspace: this.paths.root,
      initId,
      publicKey: signer.publicKey,
      fingerprint: signer.fingerprint,
      home: this.keys.home,
    };
    await this.keys.writeIdentity({ version: 1, ...identity, createdAt: this.now().toISOString() });
    await this.writePublicKey(identity);
    return {
      snapshot: { state: emptyState(), head: zeroHead(), warnings: [] },
      dirty: false,
      checkpoint: zeroHead(),
      signer,
      pending: [{ stage: 0, kind: "genesis", data: { ...identity, format: "skillgate-ledger/2" } }],
      needsNewline: false,
      markBehind: true,
    };
  }

  private async writePublicKey(identity: LedgerIdentity): Promise<void> {
    const text = `${JSON.stringify({ fingerprint: identity.fingerprint, publicKey: identity.publicKey, workspace: identity.workspace }, null, 2)}\n`;
    await this.writeAtomic(`${this.paths.skillgateDir}/ledger.pub`, text).catch(() => undefined);
  }

  private legacyRefusal(): SkillgateError {
    return new SkillgateError(
      "LEDGER_FORMAT_OLD",
      `the evidence ledger ${this.paths.ledger} was written by an older skillgate (HMAC-signed records, ledger v1), which this version does not sign or verify. Nothing was changed or discarded. To continue, move ledger.jsonl and progress.json aside (keep them as the old record) and run \`skillgate init ${this.paths.root}\`: a new Ed25519-signed ledger starts, and the stages must be completed again.`,
      { ledger: this.paths.ledger },
    );
  }

  private async readCheckpoint(warnings: string[]): Promise<Checkpoint | null> {
    let text: string;
    try {
      text = await readFile(this.paths.progress, "utf8");
    } catch {
      return null;
    }
    try {
      const parsed = JSON.parse(text) as Checkpoint;
      const key = parsed?.state?.identity?.publicKey;
      if (
        parsed?.version === 2 &&
        parsed.ledger &&
        typeof key === "string" &&
        typeof parsed.sig === "string"
      ) {
        if (verifySignature(key, checkpointMessage(parsed.ledger, parsed.state), parsed.sig)) return parsed;
      }
    } catch {
      // an unreadable checkpoint is treated like a forged one
    }
    warnings.push(
      `the progress checkpoint ${this.paths.progress} failed verification (edited or corrupt); state was rebuilt from the signed ledger`,
    );
    return null;
  }

  private async anchorMatches(head: LedgerHead): Promise<boolean> {
    if (head.offset === 0) return false;
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
    const parsed = parseLine(bytes.subarray(previousNewline + 1, bytes.length - 1).toString("utf8"));
    return parsed.ok && parsed.record.hash === head.hash && parsed.record.seq === head.seq;
  }

  private async writeCheckpoint(signer: LedgerSigner, head: LedgerHead, state: EvidenceState): Promise<void> {
    const checkpoint: Checkpoint = {
      version: 2,
      ledger: head,
      state,
      sig: signer.sign(checkpointMessage(head, state)),
    };
    await this.writeAtomic(this.paths.progress, `${JSON.stringify(checkpoint)}\n`);
  }
}

/** A copy that callers may mutate; the signer is shared (it holds no state). */
function cloneLoaded(loaded: LoadedLedger): LoadedLedger {
  return {
    ...loaded,
    snapshot: structuredClone(loaded.snapshot),
    checkpoint: { ...loaded.checkpoint },
    pending: structuredClone(loaded.pending),
  };
}

function zeroHead(): LedgerHead {
  return { offset: 0, seq: 0, hash: GENESIS_HASH };
}

function checkpointMessage(head: LedgerHead, state: EvidenceState): string {
  return `skillgate-checkpoint:${canonicalJson({ ledger: head, state })}`;
}

function describeQuarantine(ledger: string, bad: BadLine[], gaps: Array<[number, number]>): string {
  const parts = [
    ...bad.map((b) => (b.seq !== null ? b.reason : `the line at byte ${b.offset}: ${b.reason}`)),
    ...gaps.map(([a, b]) => (a === b ? `record ${a} is missing` : `records ${a}-${b} are missing`)),
  ];
  const onlyTorn = gaps.length === 0 && bad.every((b) => b.torn);
  return `evidence ledger ${ledger}: ${parts.join("; ")}. ${
    onlyTorn
      ? "The torn line was left in place and noted; no evidence was lost."
      : "Those lines were left in place, not applied, and noted in a signed quarantine record; the evidence of the current stage must be collected again (ListSkill, ReadTextFile, RunSkillScript, Check)."
  }`;
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

async function appendSynced(file: string, text: string): Promise<void> {
  const handle = await open(file, "a");
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
