// Third stage of a run: spawns the prepared argv (no shell, own session, extra descriptors), born in its cgroup when it can be.
import { type ChildProcess, spawn } from "node:child_process";
import type { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";
import type { PidsCgroup } from "../cgroup.js";
import { coverInherited } from "./inherited-fds.js";
import { SpawnThread } from "./thread.js";

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

/** The part of a ChildProcess a run uses: met by node's own and by a child the spawn thread started (spawn/thread.ts). */
export interface RunChild extends EventEmitter {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdio: ReadonlyArray<Readable | Writable | null | undefined>;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  ref(): void;
  unref(): void;
}

export interface Spawned {
  child: RunChild;
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
  const base = baseStdio(input);
  const start = (): ChildProcess => {
    const child = spawn(input.argv[0] as string, input.argv.slice(1), {
      cwd: input.cwd,
      env: input.env,
      // A new session and process group: without a cgroup the tree is killed with kill(-pgid).
      detached: true,
      stdio: stdioOf(input),
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
  return { child, exited: exitOf(child), bornInCgroup };
}

let thread: SpawnThread | null = null;

/**
 * Whether runs with the bwrap hand-shake are spawned on the process's spawn thread (spawn/thread.ts): for a
 * server, whose event loop libuv's spawn would otherwise block until each child has exec'd (a fork, then a wait
 * on the exec-error pipe that grows with load). A one-shot process keeps the direct spawn (no thread to start).
 */
export function spawnOffThread(on: boolean): void {
  thread = on ? (thread ?? new SpawnThread()) : null;
}

/** Runs spawned on the spawn thread since it was turned on (0 when off). */
export function offThreadSpawns(): number {
  return thread?.spawned ?? 0;
}

/** spawnRun, on the spawn thread when it is on and the run has the hand-shake (a cgroup-v1 birth move needs this thread). */
export async function spawnRunAsync(input: SpawnInput): Promise<Spawned> {
  if (thread === null || !input.handshake) return spawnRun(input);
  const stdio = stdioOf(input);
  const offset = baseStdio(input).length;
  const feeds = (input.extraFds ?? []).flatMap((fd, index) =>
    Buffer.isBuffer(fd) ? [{ fd: offset + index, bytes: fd }] : [],
  );
  const { child, started } = thread.spawn({
    file: input.argv[0] as string,
    args: input.argv.slice(1),
    cwd: input.cwd,
    env: input.env,
    stdio,
    feeds,
  });
  const exited = exitOf(child);
  await started;
  return { child, exited, bornInCgroup: false };
}

function baseStdio(input: SpawnInput): string[] {
  return input.handshake ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"];
}

/** Our stdio entries, then /dev/null over every descriptor above them that the child would otherwise inherit. */
function stdioOf(input: SpawnInput): Array<"ignore" | "pipe" | number> {
  const extra = input.extraFds ?? [];
  const entries = [...baseStdio(input), ...extra.map((fd) => (typeof fd === "number" ? fd : "pipe"))];
  return [...entries, ...coverInherited(entries.length)] as Array<"ignore" | "pipe" | number>;
}

function exitOf(child: RunChild): Promise<Exit> {
  return new Promise<Exit>((resolve) => {
    child.once("error", (error: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
  });
}
