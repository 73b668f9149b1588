// The process's prepared sandboxes: after a repeated run, the next one's sandbox is made ahead; each serves at most one run.
import type { RunRequest } from "../types.js";
import { type HeldSandbox, type HoldDeps, holdSandboxFor } from "./held.js";

export interface PreparedStats {
  /** Sandboxes made ahead and held. */
  prepared: number;
  /** Runs served by a held sandbox. */
  adopted: number;
  /** Held sandboxes killed unused: the next run's plan differed, they died, or the pool closed. */
  discarded: number;
}

/** What a run's plan looks like with its run id taken out: two runs with one key get the same sandbox. */
export function planKey(argv: readonly string[], runId: string, req: RunRequest): string {
  const masked = argv.map((arg) => arg.split(runId).join("\u0000run\u0000"));
  return JSON.stringify([masked, req.cwd, req.limits.maxProcesses, req.limits.memoryBytes]);
}

/** Longest close() waits for a killed sandbox to leave its cgroup (under load the kernel may take a while). */
const END_PATIENCE_MS = 5_000;

/** Longest a sandbox may take to reach its hand-shake before the pool gives up on it. */
const HOLD_TIMEOUT_MS = 30_000;

/** Longest a run waits for a sandbox already being made for it (making one itself takes about as long). */
const TAKE_PATIENCE_MS = 1_000;

interface Pending {
  promise: Promise<HeldSandbox | null>;
  done: boolean;
  /** The making began (it waits for the calls under holdWhile to settle first). */
  started: boolean;
}

export class PreparedPool {
  readonly stats: PreparedStats = { prepared: 0, adopted: 0, discarded: 0 };
  private pending: Pending | null = null;
  /** Held and not yet handed to a run: what close() and process exit kill. */
  private readonly idle = new Set<HeldSandbox>();
  private lastKey: string | null = null;
  private closed = false;
  /** Aborted by close(): a sandbox still being made then ends at once instead of being awaited until held. */
  private closing = new AbortController();
  private readonly onExit = (): void => {
    for (const held of this.idle) held.discard();
    this.idle.clear();
  };

  constructor(private readonly hold: typeof holdSandboxFor = holdSandboxFor) {
    process.on("exit", this.onExit);
  }

  /**
   * The sandbox made for the next run, removed from the pool: nobody else gets it. One already being made is
   * waited for (at most TAKE_PATIENCE_MS); one not begun yet is left for a later run (this one starts fresh).
   */
  async take(): Promise<HeldSandbox | null> {
    const pending = this.pending;
    if (pending === null || (!pending.done && !pending.started)) return null;
    if (!pending.done) {
      let timer: NodeJS.Timeout | undefined;
      const ready = await Promise.race([
        pending.promise.then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), TAKE_PATIENCE_MS);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
      // Too slow, or another run took it meanwhile.
      if (!ready || this.pending !== pending) return null;
    }
    this.pending = null;
    const held = await pending.promise;
    if (held !== null) this.idle.delete(held);
    return held;
  }

  /** A held sandbox the run could not use: killed, never offered again. */
  discard(held: HeldSandbox): void {
    this.idle.delete(held);
    this.stats.discarded++;
    held.discard();
  }

  adopted(): void {
    this.stats.adopted++;
  }

  private busy = 0;
  private readonly whenQuiet: Array<() => void> = [];

  /**
   * Runs `work` (a tool call) with the making of the next sandbox held back until it and every other such call
   * settled: bwrap's spawn and the set-up walk block the event loop for milliseconds, which would otherwise land on
   * the call's own ledger commit and result instead of on the time between calls.
   */
  async holdWhile<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
      if (this.busy === 0) for (const wake of this.whenQuiet.splice(0)) wake();
    }
  }

  private quiet(): Promise<void> {
    return this.busy === 0 ? Promise.resolve() : new Promise((resolve) => this.whenQuiet.push(resolve));
  }

  /**
   * Called after each run with its plan key (null: a run that cannot be prepared): when the run repeated the previous run's plan (or was served by a
   * held sandbox), the sandbox of the next run with that plan is made now, in the background.
   */
  afterRun(key: string | null, served: boolean, req: RunRequest, deps: HoldDeps): void {
    const repeated = key !== null && (served || key === this.lastKey);
    this.lastKey = key;
    if (!repeated || this.closed || this.pending !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const entry: Pending = { promise: Promise.resolve(null), done: false, started: false };
    const quiet = this.quiet();
    const made = quiet
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        entry.started = true;
        if (this.closed) return null;
        return this.hold(req, { ...deps, signal: this.closing.signal });
      })
      .catch(() => null);
    // A set-up that never reaches the hand-shake must not hold the pool forever.
    const timedOut = quiet.then(
      () =>
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), HOLD_TIMEOUT_MS);
          timer.unref();
        }),
    );
    entry.promise = Promise.race([made, timedOut]).then(async (held) => {
      clearTimeout(timer);
      entry.done = true;
      if (held === "timeout") {
        if (this.pending === entry) this.pending = null;
        void made.then((late) => late?.discard());
        return null;
      }
      if (held === null) {
        if (this.pending === entry) this.pending = null;
        return null;
      }
      if (this.closed) {
        await held.end(END_PATIENCE_MS);
        return null;
      }
      this.stats.prepared++;
      this.idle.add(held);
      return held;
    });
    this.pending = entry;
  }

  /** Resolves once no sandbox is being made (benchmarks wait for it so background work never overlaps a timing). */
  async settled(): Promise<void> {
    await this.pending?.promise;
  }

  /** Host pids of the held sandboxes (bwrap and its sandbox child), none of which runs skill code yet. */
  idlePids(): number[] {
    return [...this.idle].flatMap((held) => held.cgroup.members());
  }

  /**
   * Kills every held sandbox and waits for their cgroups to go; with `reopen` the pool keeps working afterwards
   * (tests), else it prepares no more.
   */
  async close(reopen = false): Promise<void> {
    this.closed = true;
    this.closing.abort();
    await this.pending?.promise;
    this.pending = null;
    const ending = [...this.idle].map((held) => {
      this.stats.discarded++;
      return held.end(END_PATIENCE_MS);
    });
    this.idle.clear();
    await Promise.all(ending);
    this.lastKey = null;
    if (reopen) {
      this.closed = false;
      this.closing = new AbortController();
    } else process.off("exit", this.onExit);
  }
}

let shared: PreparedPool | null = null;

/** The process-wide pool, or null when SKILLGATE_PREPARED_SANDBOX=0 turns preparing off. */
export function sharedPreparedPool(env: NodeJS.ProcessEnv = process.env): PreparedPool | null {
  if (env.SKILLGATE_PREPARED_SANDBOX === "0") return null;
  shared ??= new PreparedPool();
  return shared;
}

/** Ends the process-wide pool (if one was made): `serve` calls it before exiting so no held sandbox outlives it. */
export async function closeSharedPreparedPool(): Promise<void> {
  await shared?.close();
}

/** Runs a tool call with the shared pool's next preparation held back until it settled (PreparedPool.holdWhile). */
export function preparingAfter<T>(work: () => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const pool = sharedPreparedPool(env);
  return pool === null ? work() : pool.holdWhile(work);
}
