// Group commit of ledger transactions: callers that arrive while a commit runs wait together for the next one.
import { AsyncLocalStorage } from "node:async_hooks";
import { channel } from "node:diagnostics_channel";
import { SkillgateError } from "../errors.js";
import { holdsWorkspaceLock, outsideHeldLocks } from "../workspace/index.js";
import type { SealedBatch, WriteOutcome } from "./ledger-commit.js";
import type { LedgerSnapshot } from "./ledger-load.js";
import type { LedgerRecord, UnsignedRecord } from "./record.js";

export interface TransactionStep<T> {
  records: UnsignedRecord[];
  result: T;
}

export interface TransactionResult<T> {
  snapshot: LedgerSnapshot;
  result: T;
  appended: LedgerRecord[];
}

export interface TransactOptions {
  /**
   * false: answer once the records are written, before they are durable (run receipts; see ledger-commit.ts). A
   * background flush (flush.ts), or any other commit, makes them durable and only then moves the head mark.
   */
  durable?: boolean;
}

export type TransactionBody<T> = (
  snapshot: LedgerSnapshot,
) => TransactionStep<T> | Promise<TransactionStep<T>>;

export interface Job {
  body: TransactionBody<unknown>;
  resolve: (value: TransactionResult<unknown>) => void;
  reject: (error: unknown) => void;
  asked: number;
  /** false: the caller may be answered before the fsync (ledger-commit.ts, deferred durability). */
  durable: boolean;
}

/** Each transaction's wait from its call until its commit holds the workspace lock, `{ lockPath, waitedMs, batch }`. */
export const LEDGER_WAIT_CHANNEL = "skillgate:ledger-lock-wait";
const ledgerWaits = channel(LEDGER_WAIT_CHANNEL);
/** Bounds one commit's append; later transactions go into the next commit. */
const MAX_BATCH = 256;

/** Set while a transaction body runs: a body starting another transaction of its ledger would wait on itself. */
const inBody = new AsyncLocalStorage<object>();

/** One queue per ledger instance: `commit` takes the lock once for every job handed to it and settles each job. */
export class CommitQueue {
  private readonly waiting: Job[] = [];
  private committer: Promise<void> | null = null;

  constructor(
    private readonly owner: object,
    private readonly lockFile: string,
    private readonly commit: (jobs: Job[]) => Promise<void>,
  ) {}

  submit<T>(body: TransactionBody<T>, durable = true): Promise<TransactionResult<T>> {
    if (inBody.getStore() === this.owner)
      throw new SkillgateError("INTERNAL", "a ledger transaction body started another transaction", {});
    return new Promise<TransactionResult<T>>((resolve, reject) => {
      const job: Job = {
        body: body as TransactionBody<unknown>,
        resolve: resolve as Job["resolve"],
        reject,
        asked: performance.now(),
        durable,
      };
      // A caller already holding the lock (nested in withWorkspaceLock) commits alone, inside its own hold.
      if (holdsWorkspaceLock(this.lockFile)) void this.commit([job]);
      else {
        this.waiting.push(job);
        this.start();
      }
    });
  }

  private start(): void {
    if (this.committer) return;
    // The committer serves every caller: it must not run in (and inherit the held locks of) the first caller's flow.
    this.committer = outsideHeldLocks(async () => {
      while (this.waiting.length > 0) await this.commit(this.waiting.splice(0, MAX_BATCH));
    }).finally(() => {
      this.committer = null;
      if (this.waiting.length > 0) this.start();
    });
  }
}

/** Publishes how long each job waited for the lock its commit now holds (free without subscribers). */
export function publishWaits(lockPath: string, jobs: readonly Job[]): void {
  if (!ledgerWaits.hasSubscribers) return;
  const locked = performance.now();
  for (const job of jobs) ledgerWaits.publish({ lockPath, waitedMs: locked - job.asked, batch: jobs.length });
}

export interface BodiesRun {
  answers: Array<{
    job: Job;
    answer: TransactionResult<unknown>;
    sealed: number;
    own: LedgerSnapshot | null;
  }>;
  failed: Set<Job>;
}

/**
 * Runs the jobs' bodies in order on the batch's state, sealing each one's records before the next body runs. A body
 * that throws fails its own caller only (its records are not sealed); the others go on. The records the load itself
 * must append (genesis, a quarantine note) go first, sealed with the first body that succeeds, which (as a lone
 * transaction always did) decides on the state as loaded.
 */
export async function runBodies(
  owner: object,
  jobs: readonly Job[],
  batch: SealedBatch,
  mapError: (error: unknown) => unknown,
): Promise<BodiesRun> {
  const snapshot = batch.loaded.snapshot;
  let pending = batch.loaded.pending;
  batch.loaded.pending = [];
  const run: BodiesRun = { answers: [], failed: new Set() };
  for (const [i, job] of jobs.entries()) {
    let step: TransactionStep<unknown>;
    try {
      step = await inBody.run(owner, () => job.body(snapshot));
    } catch (error) {
      run.failed.add(job);
      job.reject(mapError(error));
      continue;
    }
    const appended = await batch.seal([...pending, ...step.records]);
    pending = [];
    // Every caller but the last gets the state as it was right after its own records.
    const own = i === jobs.length - 1 ? null : structuredClone(snapshot);
    run.answers.push({
      job,
      answer: { snapshot, result: step.result, appended },
      sealed: batch.records.length,
      own,
    });
  }
  return run;
}

/** After the write: each earlier caller's own snapshot gets its head offset and the write's warnings. */
export function finishAnswers(run: BodiesRun, outcome: WriteOutcome, start: number): void {
  for (const entry of run.answers) {
    if (!entry.own) continue;
    entry.own.head.offset = entry.sealed === 0 ? start : (outcome.ends[entry.sealed - 1] ?? start);
    entry.own.warnings.push(...outcome.warnings);
    entry.answer.snapshot = entry.own;
  }
}
