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
// - Appends are undone when the write fails (no torn record on a full disk); ENOSPC/EACCES keep their own codes.
// - Group commit: the transactions of one process that wait while a commit is under way go together into the next
//   one: one lock acquisition, one load, their bodies in arrival order (each sees the records of the ones before it),
//   one synced append, one head-mark move. Each caller is answered only after its own records are durable (deferred
//   run receipts: before; flush.ts syncs them outside the lock). Every commit takes the file lock (other processes).
// - After its own commit a process keeps the state it wrote (keyed by the files' identity right after the write), so
//   the next load does not re-verify its own records; a write by anyone else changes the identity and forces a load.
import { statSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { isSkillgateError } from "../errors.js";
import { ioError, stageFileAtomic, withWorkspaceLock, writeFileAtomic } from "../workspace/index.js";
import { type AdoptResult, adoptLoaded } from "./adopt.js";
import { flushOutsideLock, scheduleUnlocked } from "./flush.js";
import { type ChainVerdict, type Head, verifyChain } from "./fold.js";
import {
  type BodiesRun,
  CommitQueue,
  finishAnswers,
  type Job,
  publishWaits,
  runBodies,
  type TransactionBody,
  type TransactionResult,
  type TransactOptions,
} from "./group-commit.js";
import { type LedgerKeys, localKeys } from "./keys.js";
import { type CommitDeps, SealedBatch, writeSealed } from "./ledger-commit.js";
import { fileIdentity } from "./ledger-files.js";
import {
  cloneLoaded,
  type LedgerSnapshot,
  type LoadContext,
  type LoadedLedger,
  loadLedger,
} from "./ledger-load.js";
import { evidenceLocations } from "./locations.js";

export {
  LEDGER_WAIT_CHANNEL,
  type TransactionResult,
  type TransactionStep,
  type TransactOptions,
} from "./group-commit.js";
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
    return this.lastLoad.identity === this.identity() ? structuredClone(this.lastLoad.loaded.snapshot) : null;
  }

  /**
   * The verified state without the workspace lock, when loading it needs no write: null when there is no ledger yet,
   * the load found anything to append or repair (a quarantine, a torn tail, the head mark behind), failed, or the
   * files changed while it read them. The caller then transacts, which loads again under the lock and reports it.
   */
  async readClean(): Promise<LedgerSnapshot | null> {
    const unchanged = await this.readUnchanged();
    if (unchanged) return unchanged;
    const info = statSync(this.paths.ledger, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size === 0) return null;
    const loaded = await this.load().catch(() => null);
    if (!loaded || loaded.dirty || loaded.pending.length > 0 || loaded.markBehind || loaded.needsNewline)
      return null;
    // The load keeps its state keyed by the files' identity taken before it read them: a write since is a miss.
    return this.readUnchanged();
  }

  private identity(): string {
    return `${fileIdentity(this.paths.ledger)}|${fileIdentity(this.paths.progress)}`;
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
    if (this.unsynced) await this.flushOnce();
    // Appended while that flush staged its files: one synced commit takes the rest.
    if (this.unsynced) await this.transact(() => ({ records: [], result: undefined }));
  }

  /** The fsync and the new mark/checkpoint bytes outside the lock, their renames under it (flush.ts); else a synced commit. */
  private async flushOnce(): Promise<void> {
    const outcome = await flushOutsideLock({
      ...this.commitDeps,
      lock: (fn) => this.lock(this.paths, fn),
      cached: () => (this.lastLoad?.identity === this.identity() ? this.lastLoad.loaded : null),
      placed: (loaded) => {
        if (this.lastLoad) this.lastLoad.identity = this.identity();
        this.unsynced = loaded.unsynced;
      },
    });
    if (!outcome.done) await this.transact(() => ({ records: [], result: undefined }));
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    const schedule = this.deps.scheduleFlush ?? ((flush: () => void) => setImmediate(flush));
    this.flushing = new Promise<void>((resolve) => {
      scheduleUnlocked(schedule, () => {
        // A failed flush leaves the records unsynced: the next synced commit retries and reports the error.
        this.flushOnce()
          .catch(() => undefined)
          .finally(() => {
            this.flushing = null;
            resolve();
            // Records deferred while this flush ran get the next one.
            if (this.unsynced) this.scheduleFlush();
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
    const identity = this.identity();
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
  async adopt(): Promise<AdoptResult> {
    await mkdir(this.paths.skillgateDir, { recursive: true });
    return this.lock(this.paths, async () => {
      const loaded = await this.load({ adopting: true });
      this.lastLoad = null;
      return adoptLoaded(loaded, this.ctx, this.commitDeps);
    });
  }

  /** Verifies the whole ledger from genesis (slow path; tests, status and `skillgate verify` use the proof verifier). */
  async verifyAll(): Promise<ChainVerdict> {
    return verifyChain(await readFile(this.paths.ledger).catch(() => Buffer.alloc(0)));
  }

  private async load(options: { adopting?: boolean } = {}): Promise<LoadedLedger> {
    const fileId = this.identity();
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
