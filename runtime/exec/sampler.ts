// One memory sampler for every live run: one timer per poll interval reads each run's cgroup or process tree.
import { type ProcEntry, procEntries, residentBytes, treeOf } from "./proc-tree.js";

/** What the sampler reads (Linux /proc by default; tests pass their own). */
export interface SamplerIO {
  /** Every process of the host, read at most once a tick, and only when a watched run has no cgroup. */
  entries(): ProcEntry[];
  tree(entries: readonly ProcEntry[], root: number, pgid: number): number[];
  resident(pids: readonly number[]): number;
}

export interface WatchedRun {
  /** The run's first process; also its process group (runs are spawned detached). */
  pid: number;
  /** The run's cgroup members (every process of the run, setsid'ed ones too), or null: the process tree is read. */
  members: (() => number[]) | null;
  /** Resident bytes of the whole run at this sample (0: an exited, not yet reaped tree). */
  onSample(bytes: number): void;
}

interface Ticker {
  timer: NodeJS.Timeout;
  runs: Set<WatchedRun>;
}

const PROC_IO: SamplerIO = { entries: procEntries, tree: treeOf, resident: residentBytes };

/**
 * One timer per interval for all runs, instead of one poller per run: with many runs at once, per-run pollers
 * each walking /proc saturated the event loop. A tick reads /proc once for all tree-sampled runs.
 */
export class SharedMemorySampler {
  private readonly tickers = new Map<number, Ticker>();

  constructor(private readonly io: SamplerIO = PROC_IO) {}

  /** Samples `run` now and then every `intervalMs` until the returned stop function is called. */
  watch(run: WatchedRun, intervalMs: number): () => void {
    this.sample([run]);
    let ticker = this.tickers.get(intervalMs);
    if (!ticker) {
      const runs = new Set<WatchedRun>();
      ticker = { runs, timer: setInterval(() => this.sample([...runs], runs), intervalMs) };
      this.tickers.set(intervalMs, ticker);
    }
    ticker.runs.add(run);
    const owner = ticker;
    return () => {
      owner.runs.delete(run);
      if (owner.runs.size === 0 && this.tickers.get(intervalMs) === owner) {
        clearInterval(owner.timer);
        this.tickers.delete(intervalMs);
      }
    };
  }

  /** Runs watched now (all intervals). */
  get watching(): number {
    let total = 0;
    for (const ticker of this.tickers.values()) total += ticker.runs.size;
    return total;
  }

  /** Timers running now. */
  get timers(): number {
    return this.tickers.size;
  }

  /** `live`: a run a sample before it stopped (a limit kill) is not sampled after its stop. */
  private sample(runs: readonly WatchedRun[], live?: ReadonlySet<WatchedRun>): void {
    let entries: ProcEntry[] | null = null;
    for (const run of runs) {
      if (live && !live.has(run)) continue;
      let pids: number[];
      if (run.members) pids = run.members();
      else {
        entries ??= this.io.entries();
        pids = this.io.tree(entries, run.pid, run.pid);
      }
      run.onSample(this.io.resident(pids));
    }
  }
}

/** The process-wide sampler every run of this process shares. */
export const sharedMemorySampler = new SharedMemorySampler();
