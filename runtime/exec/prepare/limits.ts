// Resource limits of a run: its cgroup (root), and the prlimit argv for processes, file size, open files and core.
import { createPidsCgroup, type PidsCgroup } from "../cgroup.js";
import { hardNprocLimit, prlimitFor, SYSTEM_PATH } from "../plan/host-tools.js";
import { userTaskCount } from "../proc-tree.js";
import type { RunLimits } from "../types.js";

const GIB = 1024 * 1024 * 1024;
/** bwrap's own two processes and the wrappers need a few MiB beyond the script's limit. */
const MEMORY_SLACK_BYTES = 16 * 1024 * 1024;

export function runCgroup(
  runId: string,
  limits: RunLimits,
  bwrap: boolean,
  platform: NodeJS.Platform,
  cgroupRoot: string | undefined,
  /** A cgroup made earlier by this function for the same limits (a prepared sandbox's): used instead of a new one. */
  existing?: PidsCgroup,
): { cgroup: PidsCgroup | null; warnings: string[] } {
  const made =
    existing === undefined
      ? createPidsCgroup(
          runId,
          limits.maxProcesses + (bwrap ? 2 : 0),
          cgroupRoot,
          limits.memoryBytes + MEMORY_SLACK_BYTES,
        )
      : { cgroup: existing };
  const cgroup = "cgroup" in made ? made.cgroup : null;
  const warnings: string[] = [];
  if ("reason" in made && process.getuid?.() === 0) {
    warnings.push(
      `process limit not enforced: running as root (RLIMIT_NPROC does not apply) and ${made.reason}; fix: run skillgate as a normal user or give it a pids cgroup controller`,
    );
  }
  if (platform === "linux" && (cgroup === null || cgroup.memoryDir === null)) {
    warnings.push(
      "memory limit counts resident memory only (no memory cgroup: skillgate is not root or the controller is missing), so tmpfs files and memfds are not counted; fix: run skillgate as root with the memory controller for a full limit",
    );
  }
  return { cgroup, warnings };
}

/**
 * RLIMIT_NPROC counts every task of the real uid, not just the run's. Root is exempt from it (the
 * pids cgroup limits root's runs instead); for another user the run may add `max` tasks to those
 * the user already has, else a busy desktop session would leave a script no fork at all.
 */
async function nprocLimit(
  max: number,
  hasCgroup: boolean,
  platform: NodeJS.Platform,
  runUid?: number,
): Promise<number> {
  const uid = runUid ?? process.getuid?.();
  // Runs dropped to the shared sandbox uid would count each other's tasks; their pids cgroup is the limit.
  if (hasCgroup && runUid !== undefined && runUid !== process.getuid?.()) return hardNprocLimit();
  if (hasCgroup || uid === undefined || uid === 0 || platform !== "linux") return max;
  return max + userTaskCount(uid);
}

/** The prlimit prefix of the argv (empty, with a warning, when util-linux's prlimit is missing). */
export async function limitArgv(
  limits: RunLimits,
  searchPath: string | undefined,
  hasCgroup: boolean,
  platform: NodeJS.Platform,
  runUid: number | undefined,
): Promise<{ argv: string[]; warnings: string[] }> {
  const prlimit = prlimitFor(searchPath ?? SYSTEM_PATH.join(":"));
  if (prlimit === null) {
    return {
      argv: [],
      warnings: [
        "resource limits (processes, file size, open files, core) not set: prlimit (util-linux) is missing",
      ],
    };
  }
  const argv = [
    prlimit,
    `--nproc=${await nprocLimit(limits.maxProcesses, hasCgroup, platform, runUid)}`,
    `--fsize=${limits.maxFileSizeBytes}`,
    `--nofile=${limits.maxOpenFiles}`,
    "--core=0",
    // A per-process backstop only: the tree limit is the RSS poll. Runtimes reserve far more
    // writable virtual memory than they use (bun, esbuild), hence the 1 GiB floor.
    `--data=${Math.max(limits.memoryBytes * 2, GIB)}`,
    "--",
  ];
  return { argv, warnings: [] };
}
