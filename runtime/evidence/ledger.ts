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
// - Group commit: the transactions of one process that wait while a commit is under way go together into the next
//   one: one lock acquisition, one load, their bodies in arrival order (each sees the records of the ones before it),
//   one synced append, one head-mark move. Each caller is answered only after its own records are durable. The file
//   lock is still taken for every commit, so another process (a CLI call beside a server) serialises as before.
// - After its own commit a process keeps the state it wrote (keyed by the files' identity right after the write), so
//   the next load does not re-verify its own records; a write by anyone else changes the identity and forces a load.
import { mkdir, readFile, stat } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { ioError, stageFileAtomic, withWorkspaceLock, writeFileAtomic } from "../workspace/index.js";
import { adoptCountersignMessage, foldLines, type Head, splitLedger } from "./fold.js";
import {
  type BodiesRun,
  CommitQueue,
  finishAnswers,
  type Job,
  publishWaits,
  runBodies,
  type TransactionBody,
  type TransactionResult,
} from "./group-commit.js";
import { newInitId } from "./identity.js";
import { type LedgerKeys, localKeys } from "./keys.js";
import { type CommitDeps, SealedBatch, writeSealed } from "./ledger-commit.js";
import { fileIdentity, zeroHead } from "./ledger-files.js";
import {
  cloneLoaded,
  type LedgerSnapshot,
  type LoadContext,
  type LoadedLedger,
  loadLedger,
  writePublicKey,
} from "./ledger-load.js";
import { evidenceLocations } from "./locations.js";
import { emptyState, type LedgerIdentity } from "./state.js";

export { LEDGER_WAIT_CHANNEL, type TransactionResult, type TransactionStep } from "./group-commit.js";
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
  /** Runs the background flush after a deferred commit (default: on the next turn of the event loop). */
  scheduleFlush?: (flush: () => void) => void;
  /** "inline": `durable: false` is synced before it answers too, nothing left to flush (a process that exits after one call). */
  durability?: "deferred" | "inline";
}

export interface TransactOptions {
  /**
   * false: answer once the records are written, before they are durable (run receipts; see ledger-commit.ts). A
   * background flush, or any other commit, makes them durable and only then moves the head mark.
   */
  durable?: boolean;
}

const CHECKPOINT_EVERY_RECORDS = 32;

export class EvidenceLedger {
  private lastLoad: { identity: string; loaded: LoadedLedger } | null = null;
  /** This process appended records it has not fsynced yet; every synced commit syncs them first. */
  private unsynced = false;
  private flushing: Promise<void> | null = null;
  private readonly queue: CommitQueue;
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
    this.queue = new CommitQueue(this, paths.lockFile, (jobs) => this.commit(jobs));
  }

  private get ctx(): LoadContext {
    return { paths: this.paths, keys: this.keys, now: this.now, writeAtomic: this.writeAtomic };
  }

  private get commitDeps(): CommitDeps {
    return {
      ...this.ctx,
      checkpointEvery: this.deps.checkpointEvery ?? CHECKPOINT_EVERY_RECORDS,
      // An injected writer (tests) is used as given, after the append; the default one overlaps it.
      ...(this.deps.writeAtomic
        ? {}
        : { stageAtomic: (path: string, data: string) => stageFileAtomic(path, data) }),
    };
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

  /**
   * The verified state without the workspace lock, when loading it needs no write: null when there is no ledger yet,
   * the load found anything to append or repair (a quarantine, a torn tail, the head mark behind), failed, or the
   * files changed while it read them. The caller then transacts, which loads again under the lock and reports it.
   */
  async readClean(): Promise<LedgerSnapshot | null> {
    const unchanged = await this.readUnchanged();
    if (unchanged) return unchanged;
    const size = await stat(this.paths.ledger).then(
      (info) => (info.isFile() ? info.size : 0),
      () => 0,
    );
    if (size === 0) return null;
    const loaded = await this.load().catch(() => null);
    if (!loaded || loaded.dirty || loaded.pending.length > 0 || loaded.markBehind || loaded.needsNewline)
      return null;
    // The load keeps its state keyed by the files' identity taken before it read them: a write since is a miss.
    return this.readUnchanged();
  }

  private async identity(): Promise<string> {
    return `${await fileIdentity(this.paths.ledger)}|${await fileIdentity(this.paths.progress)}`;
  }

  /**
   * Runs `body` on a freshly loaded state under the workspace lock and appends the records it returns; resolves once
   * they are durable. Bodies must not change the snapshot they get (it is shared with the next body of the commit).
   */
  async transact<T>(body: TransactionBody<T>, options: TransactOptions = {}): Promise<TransactionResult<T>> {
    await mkdir(this.paths.skillgateDir, { recursive: true }).catch((error) => {
      throw ioError(error, "create the state folder", this.paths.skillgateDir);
    });
    return this.queue.submit(body, options.durable !== false || this.deps.durability === "inline");
  }

  /** Makes every record this process appended durable (and moves the head mark); free when nothing is pending. */
  async flush(): Promise<void> {
    await this.flushing;
    if (this.unsynced) await this.transact(() => ({ records: [], result: undefined }));
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    const schedule = this.deps.scheduleFlush ?? ((flush: () => void) => setImmediate(flush));
    this.flushing = new Promise<void>((resolve) => {
      schedule(() => {
        // A failed flush leaves the records unsynced: the next synced commit retries and reports the error.
        this.transact(() => ({ records: [], result: undefined }))
          .catch(() => undefined)
          .finally(() => {
            this.flushing = null;
            resolve();
          });
      });
    });
  }

  /** One commit for `jobs` (see group-commit.ts); settles every job and never throws. */
  private async commit(jobs: Job[]): Promise<void> {
    // Assigned inside the lock callback; a holder object keeps TypeScript from narrowing it to null here.
    const done: { run: BodiesRun | null } = { run: null };
    try {
      await this.lock(this.paths, async () => {
        publishWaits(this.paths.lockFile, jobs);
        const loaded = await this.load();
        // A load from disk does not know what this process left unsynced; the flag does.
        loaded.unsynced ||= this.unsynced;
        const batch = new SealedBatch(loaded, this.commitDeps);
        const run = await runBodies(this, jobs, batch, (error) => this.lockError(error));
        done.run = run;
        const start = loaded.snapshot.head.offset;
        const sync = jobs.some((job) => job.durable);
        const outcome = await writeSealed(this.commitDeps, batch, { sync }).catch((error: unknown) => {
          this.lastLoad = null;
          throw error;
        });
        this.unsynced = loaded.unsynced;
        if (this.unsynced) this.scheduleFlush();
        finishAnswers(run, outcome, start);
        if (outcome.wrote) await this.keepWritten(loaded, outcome.warnings.length === 0);
        else if (this.lastLoad) {
          // A flush changes neither file (fsync, and the mark lives outside): the cached load only learns the flags.
          this.lastLoad.loaded.unsynced = loaded.unsynced;
          this.lastLoad.loaded.markBehind = loaded.markBehind;
        }
      });
    } catch (error) {
      for (const job of jobs) if (!done.run?.failed.has(job)) job.reject(this.lockError(error));
      return;
    }
    for (const { job, answer } of done.run?.answers ?? []) job.resolve(answer);
  }

  /** The state this process just wrote becomes the cached load, keyed by the files as they are right after the write. */
  private async keepWritten(loaded: LoadedLedger, clean: boolean): Promise<void> {
    this.lastLoad = null;
    // A mark left behind by a deferred write moves with the next synced commit; any other lag is re-derived by a load.
    if (!clean || loaded.dirty || (loaded.markBehind && !loaded.unsynced) || loaded.needsNewline) return;
    const identity = await this.identity();
    // Anything but our own bytes at the end (another writer, a torn file) leaves it to the next load to verify.
    if (identity.split(":")[1] !== String(loaded.snapshot.head.offset)) return;
    const kept = cloneLoaded(loaded);
    kept.snapshot.warnings = [];
    this.lastLoad = { identity, loaded: kept };
  }

  private lockError(error: unknown): unknown {
    // The lock lives in the state folder too: a read-only or full folder must say so, not crash.
    return isSkillgateError(error) ? error : ioError(error, "lock", this.paths.lockFile);
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
      const batch = new SealedBatch(loaded, this.commitDeps);
      await batch.seal([...loaded.pending, { stage: loaded.snapshot.state.stageIndex, kind: "adopt", data }]);
      this.lastLoad = null;
      await writeSealed(this.commitDeps, batch);
      await this.keys.writeIdentity({ version: 1, ...to, createdAt: this.now().toISOString() });
      await writePublicKey(this.ctx, to);
      return { from, to, snapshot: loaded.snapshot };
    });
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
