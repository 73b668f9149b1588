// Third stage of a run: spawns the prepared argv (no shell, own session, extra descriptors), born in its cgroup when it can be.
import { type ChildProcess, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import type { PidsCgroup } from "../cgroup.js";
import { coverInherited } from "./inherited-fds.js";

export interface SpawnInput {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cgroup: PidsCgroup | null;
  /** fds 3 and 4 become pipes for bwrap's --info-fd / --block-fd. */
  handshake: boolean;
  /**
   * Descriptors after stdio and the hand-shake pair: host descriptors passed on, bytes the child reads from a pipe,
   * or "socket": a socket pair left open for the caller (child.stdio[i]).
   */
  extraFds?: Array<number | Buffer | "socket">;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: NodeJS.ErrnoException;
}

export interface Spawned {
  child: ChildProcess;
  /** Listened for at once: a sandbox that fails during the hand-shake may exit before anything else is awaited. */
  exited: Promise<Exit>;
  /** The child was born inside the pids cgroup (cgroup v1 thread move); else it is added after the spawn. */
  bornInCgroup: boolean;
}

/**
 * child_process rather than execa: the run needs raw byte chunks of both pipes in arrival order
 * under one combined cap, extra descriptors for the bwrap hand-shake, a spawn made while our
 * thread sits in the run's cgroup, and kills aimed at a process group / cgroup, not one pid.
 */
export function spawnRun(input: SpawnInput): Spawned {
  const extra = input.extraFds ?? [];
  const base = input.handshake ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"];
  const start = (): ChildProcess => {
    const child = spawn(input.argv[0] as string, input.argv.slice(1), {
      cwd: input.cwd,
      env: input.env,
      // A new session and process group: without a cgroup the tree is killed with kill(-pgid).
      detached: true,
      stdio: withInheritedCovered([...base, ...extra.map((fd) => (typeof fd === "number" ? fd : "pipe"))]),
    });
    extra.forEach((fd, index) => {
      if (typeof fd === "number" || fd === "socket") return;
      const pipe = child.stdio[base.length + index] as Writable | null;
      pipe?.on("error", () => undefined);
      pipe?.end(fd);
    });
    return child;
  };
  const { cgroup } = input;
  let born: ChildProcess | undefined;
  const bornInCgroup =
    cgroup !== null && !input.handshake
      ? cgroup.bornInside(() => {
          born = start();
        })
      : false;
  const child = born ?? start();
  const exited = new Promise<Exit>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return { child, exited, bornInCgroup };
}

/** Our stdio entries, then /dev/null over every descriptor above them that the child would otherwise inherit. */
function withInheritedCovered(entries: Array<string | number>): Array<"ignore" | "pipe" | number> {
  return [...entries, ...coverInherited(entries.length)] as Array<"ignore" | "pipe" | number>;
}
