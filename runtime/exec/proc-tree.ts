// Reads Linux /proc: the descendants of a process and the resident memory of a set of processes.
import { readdirSync, readFileSync } from "node:fs";

const PAGE_SIZE = 4096;

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
}

function readEntry(pid: number): ProcEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]) };
  } catch {
    return null;
  }
}

/** Every process of the host (pid, parent, group), read from /proc once. */
export function procEntries(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readEntry(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** `root` and every live descendant, plus every member of process group `pgid` when given. */
export function processTree(root: number, pgid?: number): number[] {
  return treeOf(procEntries(), root, pgid);
}

/** processTree over entries already read (one /proc read serves every run the memory sampler watches). */
export function treeOf(entries: readonly ProcEntry[], root: number, pgid?: number): number[] {
  const found = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const entry of entries) {
      if (!found.has(entry.pid) && (found.has(entry.ppid) || (pgid !== undefined && entry.pgid === pgid))) {
        found.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...found].filter((pid) => entries.some((entry) => entry.pid === pid));
}

/** Sum of resident bytes of `pids` (processes that vanished count 0). */
export function residentBytes(pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const statm = readFileSync(`/proc/${pid}/statm`, "utf8").split(" ");
      total += Number(statm[1]) * PAGE_SIZE;
    } catch {
      // gone between listing and reading
    }
  }
  return total;
}

/** Tasks (processes and threads) owned by real uid `uid`: what RLIMIT_NPROC counts. */
export function userTaskCount(uid: number): number {
  let total = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, "utf8");
      const realUid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      if (Number(realUid) !== uid) continue;
      total += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 1);
    } catch {
      // gone
    }
  }
  return total;
}
