// A sandbox prepared ahead of its run: bwrap spawned with the run's exact argv, held on its block fd, its pids already in the run's cgroup.

import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import type { PidsCgroup } from "../cgroup.js";
import { planRun } from "../plan/plan.js";
import { type Prepared, prepareRun } from "../prepare/prepare.js";
import { type Spawned, spawnRunAsync } from "../spawn/spawn.js";
import { holdSandbox } from "../supervise/handshake.js";
import type { RunRequest } from "../types.js";
import { bindSources, readBoundView } from "./bound-view.js";
import { launcherArgv, launcherUp, releaseLauncher } from "./launcher.js";
import { pythonHookArgv, pythonHookHonoured } from "./python-hook.js";

export interface HeldSandbox {
  runId: string;
  /** The argv a fresh run of the same plan gets (what a run must match); a launcher's argv differs only in its command. */
  argv: string[];
  spawnEnv: Record<string, string>;
  cwd: string;
  fds: Buffer[];
  /** The limits the cgroup was made for. */
  maxProcesses: number;
  memoryBytes: number;
  /** bwrap's child (pid 1 of the sandbox), already past its mounts and waiting on the block fd. */
  innerPid: number;
  /** dev:ino:birth time of every host path the argv binds, as they were when bwrap mounted them. */
  sources: Map<string, string>;
  cgroup: PidsCgroup;
  spawned: Spawned;
  /** Lets bwrap exec the command; the streams count for the event loop again. */
  go(): void;
  /** Kills the held sandbox and removes its cgroup (synchronous, so it also runs at process exit). */
  discard(): void;
  /** Kills the held sandbox and resolves once its cgroup is gone (or `patienceMs` passed): for a process about to exit. */
  end(patienceMs: number): Promise<void>;
}

export interface HoldDeps {
  platform: NodeJS.Platform;
  hostEnv: NodeJS.ProcessEnv;
  cgroupRoot?: string;
  /** Aborted when the pool closes: a sandbox still mounting is then ended, its cgroup removed, and none held. */
  signal?: AbortSignal;
}

function streams(spawned: Spawned): Socket[] {
  return spawned.child.stdio.filter((stream): stream is Socket => stream !== null) as Socket[];
}

/**
 * Prepares the sandbox a run of `req` would get now, under a fresh run id, and holds it before the command
 * starts. Only runs with the cgroup hand-shake and no user-mode network are prepared; else null.
 */
export async function holdSandboxFor(req: RunRequest, deps: HoldDeps): Promise<HeldSandbox | null> {
  if (req.pythonHook !== undefined) {
    const honoured = await pythonHookHonoured(req, (probe) => holdPrepared(probe, deps, true), deps.signal);
    if (!honoured) return deps.signal?.aborted ? null : holdPrepared(req, deps, false);
  }
  return holdPrepared(req, deps, true);
}

/** `pythonHook`: start a Python runner up to the hook if the request names one (bound either way). */
async function holdPrepared(
  req: RunRequest,
  deps: HoldDeps,
  pythonHook: boolean,
): Promise<HeldSandbox | null> {
  const runId = `sg-${randomUUID()}`;
  const planned = await planRun({ ...req, runId }, runId, deps.platform, deps.hostEnv);
  if ("stopped" in planned) return null;
  const ready = await prepareRun(planned.plan, deps.hostEnv, deps.cgroupRoot);
  if ("stopped" in ready) return null;
  const prepared: Prepared = ready.prepared;
  const { cgroup, setup } = prepared;
  const fds = setup?.fds ?? [];
  const buffers = fds.filter((fd): fd is Buffer => typeof fd !== "number");
  if (
    cgroup === null ||
    setup === null ||
    !prepared.handshake ||
    prepared.slirp !== null ||
    buffers.length !== fds.length
  ) {
    setup?.release();
    cgroup?.destroy();
    await prepared.scratch.remove();
    return null;
  }
  // The interpreter starts now as well and runs the script when the run is released: node in the launcher (the
  // .ts fast path), Python up to the end of its start-up with the hook on PYTHONPATH.
  const goFd = 5 + buffers.length;
  const launched =
    req.launcher !== undefined
      ? launcherArgv(prepared.argv, planned.plan.command, req.launcher, goFd)
      : pythonHook && req.pythonHook !== undefined
        ? pythonHookArgv(prepared.argv, goFd)
        : null;
  const spawned = await spawnRunAsync({
    argv: launched ?? prepared.argv,
    cwd: req.cwd,
    env: prepared.spawnEnv,
    cgroup,
    handshake: true,
    extraFds: launched === null ? buffers : [...buffers, "socket"],
  });
  setup.release();
  // Waiting costs the event loop nothing: a held sandbox never keeps the process alive.
  spawned.child.unref();
  for (const stream of streams(spawned)) stream.unref?.();
  const kill = (): void => {
    try {
      process.kill(-(spawned.child.pid as number), "SIGKILL");
    } catch {
      // gone already
    }
  };
  const discard = (): void => {
    kill();
    cgroup.destroy();
  };
  // A closing pool must not wait for a sandbox still starting: bwrap is killed at once, at any step below.
  deps.signal?.addEventListener("abort", kill, { once: true });
  if (deps.signal?.aborted) kill(); // aborted while bwrap was being spawned: the listener will never fire
  try {
    const held = await holdSandbox(spawned.child, cgroup);
    let release = held.go;
    if (launched !== null) {
      const socket = spawned.child.stdio[goFd] as Socket;
      socket.on("error", () => undefined);
      // bwrap execs the interpreter now (both pids are in the cgroup); no line of the script runs before release.
      held.go();
      await launcherUp(socket, spawned.exited);
      release = () => releaseLauncher(socket);
    }
    const sources = await mountedSources(prepared.argv, held.innerPid, spawned.child, deps.signal);
    if (sources === null) {
      kill();
      await cgroup.release(deps.signal?.aborted ? END_PATIENCE_MS : 0);
      return null;
    }
    return {
      runId,
      innerPid: held.innerPid,
      argv: prepared.argv,
      spawnEnv: prepared.spawnEnv,
      cwd: req.cwd,
      fds: buffers,
      maxProcesses: req.limits.maxProcesses,
      memoryBytes: req.limits.memoryBytes,
      sources,
      cgroup,
      spawned,
      go() {
        spawned.child.ref();
        for (const stream of streams(spawned)) stream.ref?.();
        release();
      },
      discard,
      end(patienceMs: number): Promise<void> {
        kill();
        return cgroup.release(patienceMs);
      },
    };
  } catch {
    kill();
    await cgroup.release(deps.signal?.aborted ? END_PATIENCE_MS : 0);
    return null;
  } finally {
    deps.signal?.removeEventListener("abort", kill);
    await prepared.scratch.remove();
  }
}

/** Longest bwrap may take to mount everything after it reported its child (a loaded machine); then no hold. */
const MOUNT_PATIENCE_MS = 10_000;
/** Longest a closing pool waits for a killed, still-mounting sandbox to leave its cgroup. */
const END_PATIENCE_MS = 5_000;

/**
 * The identities of the argv's bind sources, read once bwrap has mounted them all (it reports its child's pid
 * before it mounts, and waits on the block fd only after): recorded earlier, a path swapped while bwrap mounted
 * it would pass for the one bound. Null when the sandbox shows another file than the host path (swapped meanwhile),
 * bwrap exited, its mounts cannot be seen, or the pool closed meanwhile.
 */
async function mountedSources(
  argv: string[],
  innerPid: number,
  child: Spawned["child"],
  signal?: AbortSignal,
): Promise<Map<string, string> | null> {
  const deadline = Date.now() + MOUNT_PATIENCE_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    const view = readBoundView(argv, `/proc/${innerPid}/root`);
    if (view.state === "mounted") return view.sources;
    if (view.state === "differs" || child.exitCode !== null || child.signalCode !== null) return null;
    if (signal?.aborted) return null;
    if (Date.now() > deadline) return null;
    await delay(wait, undefined, { ref: false });
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * Why the held sandbox cannot serve the run prepared as `prepared` (null when it can): the run's own
 * preparation must have produced exactly the same bwrap argv (mounts, masks, seccomp, uid, env, cwd, limits),
 * the same descriptors, and every bound path must still be the same file or folder.
 */
export function mismatch(held: HeldSandbox, prepared: Prepared, req: RunRequest): string | null {
  if (held.spawned.child.exitCode !== null || held.spawned.child.signalCode !== null) return "it exited";
  if (!prepared.handshake || prepared.slirp !== null || prepared.setup === null)
    return "the run needs another set-up";
  if (prepared.cgroup !== held.cgroup) return "the run has another cgroup";
  if (req.cwd !== held.cwd) return "another cwd";
  if (req.limits.maxProcesses !== held.maxProcesses || req.limits.memoryBytes !== held.memoryBytes) {
    return "other cgroup limits";
  }
  if (!sameStrings(prepared.argv, held.argv)) return "another sandbox argv";
  const envA = Object.entries(prepared.spawnEnv).flat();
  const envB = Object.entries(held.spawnEnv).flat();
  if (!sameStrings(envA, envB)) return "another spawn environment";
  const fds = prepared.setup.fds;
  if (fds.length !== held.fds.length) return "other descriptors";
  for (const [index, fd] of fds.entries()) {
    const mine = held.fds[index] as Buffer;
    if (typeof fd === "number" || !mine.equals(fd)) return "other descriptors";
  }
  const now = bindSources(prepared.argv);
  for (const [path, identity] of held.sources) {
    if (now.get(path) !== identity) return `${path} changed since it was bound`;
  }
  return null;
}
