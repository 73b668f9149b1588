// Spawns a prepared argv (no shell) and watches it: output cap, wall clock, tree memory; kills the whole tree.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { PidsCgroup } from "./cgroup.js";
import { startUserNet, type UserNet } from "./netns.js";
import { processTree, residentBytes } from "./proc-tree.js";
import type { RunLimits } from "./types.js";

export type LimitOutcome = "timeout" | "memory_limit" | "output_limit";

export interface SuperviseInput {
  argv: string[];
  cwd: string;
  /** Environment of the spawned program (bwrap gets a minimal one; it sets the script's own). */
  env: Record<string, string>;
  limits: RunLimits;
  /** The run's pids cgroup (root only), or null. */
  cgroup: PidsCgroup | null;
  /**
   * bwrap waits on fd 4 after reporting its sandbox pid on fd 3, so both can enter the cgroup and the user-mode
   * network can attach before the script starts.
   */
  handshake: boolean;
  /** Network granted: slirp4netns binary to attach to the sandbox's network namespace during the hand-shake. */
  userNet?: { slirp4netns: string; asRoot: boolean };
  /** Descriptors after stdio and the hand-shake pair: host descriptors passed on, or bytes the child reads from a pipe. */
  extraFds?: Array<number | Buffer>;
  /** A line a wrapper prints first on stderr (keyctl's "Joined session keyring: N"), removed from the output. */
  stderrPreamble?: RegExp;
  pollIntervalMs: number;
  platform: NodeJS.Platform;
  now: () => number;
}

export interface Supervised {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnError?: Error;
  /** Set when skillgate killed the run for a limit. */
  outcome: LimitOutcome | null;
  output: string;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** The sandbox could not be set up (hand-shake, user-mode network): nothing of the script ran. */
  setupError?: string;
  /** The memory cgroup's OOM killer acted (all memory counted: tmpfs, memfd, page cache). */
  oomKilled: boolean;
  /** null when the run ended before the first memory sample. */
  peakMemoryBytes: number | null;
  durationMs: number;
  warnings: string[];
}

function decode(buffers: Buffer[]): string {
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(buffers));
}

/**
 * child_process rather than execa: the run needs raw byte chunks of both pipes in arrival order
 * under one combined cap, extra descriptors for the bwrap hand-shake, a spawn made while our
 * thread sits in the run's cgroup, and kills aimed at a process group / cgroup, not one pid.
 */
export async function supervise(input: SuperviseInput): Promise<Supervised> {
  const { cgroup, limits, platform } = input;
  const warnings: string[] = [];
  const started = input.now();
  const extra = input.extraFds ?? [];
  const base = input.handshake ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"];
  const start = (): ChildProcess => {
    const started = spawn(input.argv[0] as string, input.argv.slice(1), {
      cwd: input.cwd,
      env: input.env,
      // A new session and process group: without a cgroup the tree is killed with kill(-pgid).
      detached: true,
      stdio: [...base, ...extra.map((fd) => (typeof fd === "number" ? fd : "pipe"))] as Array<
        "ignore" | "pipe" | number
      >,
    });
    extra.forEach((fd, index) => {
      if (typeof fd === "number") return;
      const pipe = started.stdio[base.length + index] as Writable | null;
      pipe?.on("error", () => undefined);
      pipe?.end(fd);
    });
    return started;
  };
  let spawned: ChildProcess | undefined;
  const bornInCgroup =
    cgroup !== null && !input.handshake
      ? cgroup.bornInside(() => {
          spawned = start();
        })
      : false;
  const child: ChildProcess = spawned ?? start();
  // Listened for at once: a sandbox that fails during the hand-shake may exit before anything else is awaited.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>(
    (resolve) => {
      child.once("error", (error) => resolve({ code: null, signal: null, error }));
      child.once("exit", (code, signal) => resolve({ code, signal }));
    },
  );

  let outcome = null as LimitOutcome | null;
  const chunks: Buffer[] = [];
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  let outputTotal = 0;
  let truncated = false;
  let peak = 0;
  let samples = 0;

  const killTree = (): void => {
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
  };
  const stop = (why: LimitOutcome): void => {
    if (outcome === null) outcome = why;
    killTree();
  };

  const collect = (target: Buffer[]) => (chunk: Buffer) => {
    if (truncated) return;
    const room = limits.outputBytes - outputTotal;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    outputTotal += kept.length;
    if (kept.length > 0) {
      chunks.push(kept);
      target.push(kept);
    }
    if (chunk.length > room) {
      truncated = true;
      stop("output_limit");
    }
  };
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  stdout.on("data", collect(stdoutChunks));
  const toStderr = collect(stderrChunks);
  const preamble = input.stderrPreamble;
  if (preamble === undefined) stderr.on("data", toStderr);
  else {
    // The wrapper writes its line before it execs the sandbox, so it is the very first stderr bytes.
    let head: Buffer | null = Buffer.alloc(0);
    const flushHead = (): void => {
      if (head === null) return;
      const text = head.toString("latin1");
      const match = preamble.exec(text);
      const rest = match?.index === 0 ? head.subarray(match[0].length) : head;
      head = null;
      if (rest.length > 0) toStderr(rest);
    };
    stderr.on("data", (chunk: Buffer) => {
      if (head === null) return toStderr(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.includes(10) || head.length >= 128) flushHead();
    });
    stderr.once("end", flushHead);
  }

  let net: UserNet | null = null;
  let setupError: string | null = null;
  if (child.pid !== undefined && input.handshake) {
    // A cgroup move waits for an RCU grace period (~10 ms on cgroup v1, longer under load). Started now, off the
    // main thread, that wait overlaps bwrap building the sandbox; the hand-shake still makes sure of both pids.
    const early =
      cgroup === null
        ? Promise.resolve(true)
        : writeFile(join(cgroup.dir, "cgroup.procs"), String(child.pid)).then(
            () => true,
            () => false,
          );
    await releaseAfterCgroup(child, cgroup, early, async (innerPid) => {
      if (input.userNet) net = await startUserNet(input.userNet.slirp4netns, innerPid, input.userNet.asRoot);
    }).catch((error: unknown) => {
      setupError = `sandbox start-up hand-shake failed: ${error instanceof Error ? error.message : String(error)}`;
      warnings.push(setupError);
      killTree();
    });
  } else if (child.pid !== undefined && cgroup !== null) {
    if (!bornInCgroup) {
      try {
        cgroup.add(child.pid);
      } catch {
        // exited already
      }
    } else cgroup.addMemory(child.pid);
  }

  const timer = setTimeout(() => stop("timeout"), limits.timeoutMs);
  const sampleMemory = (): void => {
    const pid = child.pid;
    if (pid === undefined || platform !== "linux") return;
    const rss = residentBytes(cgroup?.members() ?? processTree(pid, pid));
    // An exited but not yet reaped tree reads as 0 bytes: that is no sample of the run.
    if (rss === 0) return;
    samples++;
    if (rss > peak) peak = rss;
    if (rss > limits.memoryBytes) stop("memory_limit");
  };
  // One sample at once, so a run shorter than the poll interval still reports its memory.
  sampleMemory();
  const poll = setInterval(sampleMemory, input.pollIntervalMs);

  const exit = await exited;
  const durationMs = Math.round(input.now() - started);
  clearTimeout(timer);
  clearInterval(poll);
  // The run ends with its main process: anything it left behind (same group, same cgroup) dies now.
  killTree();
  (net as UserNet | null)?.stop();
  const oomKilled = cgroup?.oomKilled() ?? false;
  // The poll can miss the last climb before an OOM kill; the cgroup's own high-water mark cannot.
  const cgroupPeak = cgroup?.peakBytes() ?? null;
  if (cgroupPeak !== null) {
    samples++;
    if (cgroupPeak > peak) peak = cgroupPeak;
  }
  cgroup?.destroy();
  await drain([stdout, stderr], 500);

  return {
    code: exit.code,
    signal: exit.signal,
    ...(exit.error ? { spawnError: exit.error } : {}),
    outcome,
    output: decode(chunks),
    stdout: decode(stdoutChunks),
    stderr: decode(stderrChunks),
    truncated,
    oomKilled,
    ...(setupError === null ? {} : { setupError }),
    peakMemoryBytes: samples > 0 ? peak : null,
    durationMs,
    warnings,
  };
}
/** bwrap hand-shake: wait for its sandbox child, move both into the cgroup, then let it exec the script. */
async function releaseAfterCgroup(
  child: ChildProcess,
  cgroup: PidsCgroup | null,
  outerMoved: Promise<boolean>,
  beforeRelease: (innerPid: number) => Promise<void>,
): Promise<void> {
  const info = child.stdio[3] as Readable;
  const block = child.stdio[4] as Writable;
  // Both ends are socket pairs; bwrap closing its side must not become an unhandled 'error'.
  info.on("error", () => undefined);
  block.on("error", () => undefined);
  const text = await new Promise<string>((resolve, reject) => {
    let collected = "";
    const onData = (chunk: Buffer) => {
      collected += chunk.toString("utf8");
      if (collected.trimEnd().endsWith("}")) {
        info.off("data", onData);
        resolve(collected);
      }
    };
    info.on("data", onData);
    info.once("close", () => reject(new Error(`bwrap closed its info fd early: ${collected}`)));
    child.once("exit", () => reject(new Error("bwrap exited before the sandbox started")));
  });
  const innerPid = (JSON.parse(text) as { "child-pid"?: number })["child-pid"];
  if (!(await outerMoved) && child.pid !== undefined) cgroup?.add(child.pid);
  if (typeof innerPid !== "number") throw new Error(`bwrap reported no child pid: ${text}`);
  cgroup?.add(innerPid);
  await beforeRelease(innerPid);
  block.end("go");
  info.destroy();
}

/**
 * Waits for both pipes to close, destroying them after `graceMs` (a killed tree may leave them half open).
 * The grace timer is cleared as soon as the pipes close: left running it kept a one-shot CLI process alive
 * for the whole grace period after every run.
 */
async function drain(streams: Readable[], graceMs: number): Promise<void> {
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(
      streams.map(
        (stream) =>
          new Promise<void>((resolve) => {
            if (stream.destroyed || stream.readableEnded) resolve();
            else stream.once("close", () => resolve());
          }),
      ),
    ),
    new Promise<void>((resolve) => {
      grace = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(grace);
  for (const stream of streams) stream.destroy();
}
