// Host-state probes shared by the exec and adversarial suites: file digests and the processes of a run.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { sharedPreparedPool } from "../../runtime/exec/prepared/pool.js";
import { POLL_DEADLINE_MS } from "./poll.js";

/** sha256 of a file's bytes, or "missing" when it cannot be read. */
export function sha256(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return "missing";
  }
}

/** Pids whose argv or environment contains `marker` (the run id is in both for every process of a run). */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    for (const file of ["cmdline", "environ"]) {
      try {
        if (readFileSync(`/proc/${name}/${file}`, "latin1").includes(marker)) {
          found.push(Number(name));
          break;
        }
      } catch {
        // gone or not readable
      }
    }
  }
  return found;
}

/** Waits (bounded, polling) until no process carries `marker` in its argv or environment; returns the survivors. */
export async function survivors(marker: string, waitMs = POLL_DEADLINE_MS): Promise<number[]> {
  const deadline = Date.now() + waitMs;
  // A sandbox prepared for the next run carries the workspace path too, but no skill code has run in it (it waits
  // before exec; test/exec/prepared-*.test.ts): only those exact pids are left out, nothing that ever ran a script.
  const alive = (): number[] => {
    const held = new Set(sharedPreparedPool()?.idlePids() ?? []);
    return processesWithMarker(marker).filter((pid) => !held.has(pid));
  };
  let found = alive();
  while (found.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    found = alive();
  }
  return found;
}

/** Those of `pids` still running after a bounded wait (a killed child of ours is a zombie until reaped). */
export async function stillRunning(pids: number[], waitMs = POLL_DEADLINE_MS): Promise<number[]> {
  const running = (): number[] =>
    pids.filter((pid) => {
      try {
        return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
      } catch {
        return false;
      }
    });
  const deadline = Date.now() + waitMs;
  while (running().length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return running();
}
