// Kills a run's whole process tree: its cgroup members when it has one, else its process group and descendants.
import type { PidsCgroup } from "../cgroup.js";
import { processTree } from "../proc-tree.js";
import type { RunChild } from "../spawn/spawn.js";

export function killTree(child: RunChild, cgroup: PidsCgroup | null, platform: NodeJS.Platform): void {
  const pid = child.pid;
  if (pid === undefined) return;
  cgroup?.seal();
  // The cgroup holds every process of the run, setsid'ed ones too. Without it (not root, no pids
  // controller) level 2 still loses nothing (bwrap's pid namespace dies with it), but at level 1 a
  // setsid'ed, double-forked daemon leaves our process group and is reparented away from our
  // tree: it can escape level 1 only.
  const targets = new Set<number>(cgroup?.members() ?? (platform === "linux" ? processTree(pid, pid) : []));
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // group already gone
  }
  for (const target of targets) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
