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
import { mkdir, readFile, stat, truncate } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { ioError, withWorkspaceLock, writeFileAtomic } from "../workspace/index.js";
import { applyRecord } from "./apply.js";
import { adoptCountersignMessage, foldLines, type Head, splitLedger } from "./fold.js";
import { newInitId } from "./identity.js";
import { type LedgerKeys, localKeys } from "./keys.js";
import { appendSynced, fileIdentity, writeCheckpoint, zeroHead } from "./ledger-files.js";
import {
  cloneLoaded,
  type LedgerSnapshot,
  type LoadContext,
  type LoadedLedger,
  loadLedger,
  writePublicKey,
} from "./ledger-load.js";
import { evidenceLocations } from "./locations.js";
import { type LedgerRecord, sealRecord, type UnsignedRecord } from "./record.js";
import { emptyState, type LedgerIdentity } from "./state.js";

export type { LedgerSnapshot } from "./ledger-load.js";
export type LedgerHead = Head;

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

  private get ctx(): LoadContext {
    return { paths: this.paths, keys: this.keys, now: this.now, writeAtomic: this.writeAtomic };
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
      await writePublicKey(this.ctx, to);
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
        await writeCheckpoint(this.writeAtomic, this.paths.progress, signer, head, snapshot.state);
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
    const loaded = await loadLedger(this.ctx, options).catch((error: unknown) => {
      if (isSkillgateError(error)) throw error;
      throw ioError(error, "read the evidence state in", this.paths.skillgateDir);
    });
    const cacheable = !loaded.dirty && loaded.pending.length === 0 && !loaded.markBehind && !options.adopting;
    this.lastLoad = cacheable ? { identity: fileId, loaded: cloneLoaded(loaded) } : null;
    return loaded;
  }
}
