// Samples a run's tree memory (resident bytes of its cgroup members or process tree) and keeps the peak.
import type { PidsCgroup } from "../cgroup.js";
import { processTree, residentBytes } from "../proc-tree.js";

export interface MemorySampler {
  /** Takes one sample; returns true when it is over the limit. */
  sample(): boolean;
  /** Folds in the memory cgroup's own high-water mark (which the poll can miss before an OOM kill). */
  finish(cgroupPeak: number | null): void;
  /** null when the run ended before the first sample. */
  peak(): number | null;
}

export function memorySampler(
  pid: number | undefined,
  cgroup: PidsCgroup | null,
  limitBytes: number,
  platform: NodeJS.Platform,
): MemorySampler {
  let peak = 0;
  let samples = 0;
  return {
    sample(): boolean {
      if (pid === undefined || platform !== "linux") return false;
      const rss = residentBytes(cgroup?.members() ?? processTree(pid, pid));
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
