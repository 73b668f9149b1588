// One timer per interval for a periodic job of every live run (the writable-area check): the runs' checks land on one tick.
/**
 * Why shared: each live run checked its writable area on a timer of its own, at its own phase, so N runs made N
 * statfs readings per interval. On one tick their checks share one reading (exec/sampler-usage.ts) and the
 * event loop wakes once per interval, not N times.
 */
export class SharedTicker {
  private readonly tickers = new Map<number, { timer: NodeJS.Timeout; jobs: Set<() => void> }>();

  /** Calls `job` every `intervalMs` (first after one interval) until the returned stop function is called. */
  every(intervalMs: number, job: () => void): () => void {
    let ticker = this.tickers.get(intervalMs);
    if (!ticker) {
      const jobs = new Set<() => void>();
      ticker = {
        jobs,
        timer: setInterval(() => {
          for (const each of [...jobs]) if (jobs.has(each)) each();
        }, intervalMs),
      };
      this.tickers.set(intervalMs, ticker);
    }
    // A job registered twice (the same function) must still run on each tick for each registration.
    const own = (): void => job();
    ticker.jobs.add(own);
    const owner = ticker;
    return () => {
      owner.jobs.delete(own);
      if (owner.jobs.size === 0 && this.tickers.get(intervalMs) === owner) {
        clearInterval(owner.timer);
        this.tickers.delete(intervalMs);
      }
    };
  }

  /** Timers running now. */
  get timers(): number {
    return this.tickers.size;
  }

  /** Jobs registered now (all intervals). */
  get jobs(): number {
    let total = 0;
    for (const ticker of this.tickers.values()) total += ticker.jobs.size;
    return total;
  }
}

/** The process-wide ticker every run's area check shares. */
export const sharedTicker = new SharedTicker();
