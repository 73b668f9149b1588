// Keeps a run's tree memory peak from the shared sampler's readings (exec/sampler.ts) and says when it is over the limit.

export interface MemorySampler {
  /** Folds in one reading of the run's resident bytes; returns true when it is over the limit. */
  record(rss: number): boolean;
  /** Folds in the memory cgroup's own high-water mark (which the poll can miss before an OOM kill). */
  finish(cgroupPeak: number | null): void;
  /** null when the run ended before the first sample. */
  peak(): number | null;
}

export function memorySampler(limitBytes: number): MemorySampler {
  let peak = 0;
  let samples = 0;
  return {
    record(rss: number): boolean {
      // An exited but not yet reaped tree reads as 0 bytes: that is no sample of the run.
      if (rss === 0) return false;
      samples++;
      if (rss > peak) peak = rss;
      return rss > limitBytes;
    },
    finish(cgroupPeak: number | null): void {
      if (cgroupPeak === null) return;
      samples++;
      if (cgroupPeak > peak) peak = cgroupPeak;
    },
    peak: () => (samples > 0 ? peak : null),
  };
}
