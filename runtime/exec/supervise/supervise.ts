// Fourth stage of a run: watches the spawned tree (output cap, wall clock, memory, workspace budget) and kills it whole.
import type { Readable } from "node:stream";
import type { PidsCgroup } from "../cgroup.js";
import type { UserNet } from "../netns.js";
import type { WorkspaceExcess } from "../outcome.js";
import { sharedMemorySampler } from "../sampler.js";
import { type Exit, type Spawned, spawnRunAsync } from "../spawn/spawn.js";
import type { RunLimits } from "../types.js";
import { drain } from "./drain.js";
import { handshake, type UserNetRequest } from "./handshake.js";
import { killTree } from "./kill.js";
import { memorySampler } from "./memory.js";
import { collectOutput, type Output } from "./output.js";
import { sharedTicker } from "./ticker.js";

export type LimitOutcome = "timeout" | "memory_limit" | "output_limit" | "workspace_limit";

/** A periodic check of the run's writable area (prepare/workspace-budget.ts); a non-null answer stops the run. */
export interface AreaCheck {
  check(): Promise<WorkspaceExcess | null>;
  intervalMs: number;
}

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
  userNet?: UserNetRequest;
  extraFds?: Array<number | Buffer>;
  /** A line a wrapper prints first on stderr (keyctl's "Joined session keyring: N"), removed from the output. */
  stderrPreamble?: RegExp;
  area?: AreaCheck;
  /** A sandbox spawned ahead with this very argv and held before its command (exec/prepared): started, not spawned. */
  held?: { spawned: Spawned; go(): void };
  /**
   * The caller's last checks (RunRequest.startGate). With the hand-shake they run while bwrap builds the sandbox, and
   * the script is released only once they pass; otherwise they run before the spawn. False: the script never starts.
   */
  startGate?: () => Promise<boolean>;
  pollIntervalMs: number;
  platform: NodeJS.Platform;
  now: () => number;
}

export interface Supervised extends Output {
  exit: Exit;
  /** Set when skillgate killed the run for a limit. */
  limit: LimitOutcome | null;
  workspaceExcess?: WorkspaceExcess;
  /** The sandbox could not be set up (hand-shake, user-mode network): nothing of the script ran. */
  setupError?: string;
  /** The memory cgroup's OOM killer acted (all memory counted: tmpfs, memfd, page cache). */
  oomKilled: boolean;
  peakMemoryBytes: number | null;
  durationMs: number;
  warnings: string[];
}

export async function supervise(input: SuperviseInput): Promise<Supervised> {
  const { cgroup, limits, platform } = input;
  const warnings: string[] = [];
  const started = input.now();
  const overlapped = input.startGate !== undefined && input.handshake && input.held === undefined;
  if (input.startGate !== undefined && !overlapped && !(await passes(input.startGate))) {
    void cgroup?.release();
    return withdrawn(Math.round(input.now() - started));
  }
  const { child, exited, bornInCgroup } = input.held?.spawned ?? (await spawnRunAsync(input));
  // Started once bwrap runs: the checks' work overlaps its set-up on another core.
  const gate = overlapped && input.startGate ? passes(input.startGate) : undefined;
  let limit: LimitOutcome | null = null;
  let workspaceExcess: WorkspaceExcess | undefined;
  const kill = (): void => killTree(child, cgroup, platform);
  const stop = (why: LimitOutcome): void => {
    if (limit === null) limit = why;
    kill();
  };
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  const output = collectOutput(
    stdout,
    stderr,
    limits.outputBytes,
    () => stop("output_limit"),
    input.stderrPreamble,
  );

  let net: UserNet | null = null;
  let setupError: string | undefined;
  if (input.held !== undefined) input.held.go();
  else if (child.pid !== undefined && input.handshake) {
    try {
      net = await handshake(child, cgroup, input.userNet, gate);
    } catch (error) {
      setupError = `sandbox start-up hand-shake failed: ${error instanceof Error ? error.message : String(error)}`;
      warnings.push(setupError);
      kill();
    }
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
  const memory = memorySampler(limits.memoryBytes);
  // One timer for every live run of this process; it samples this run at once, so a run shorter than the poll
  // interval still reports its memory.
  const pid = child.pid;
  const unwatch =
    pid !== undefined && platform === "linux"
      ? sharedMemorySampler.watch(
          {
            pid,
            members: cgroup ? () => cgroup.members() : null,
            onSample: (rss) => {
              if (memory.record(rss)) stop("memory_limit");
            },
          },
          input.pollIntervalMs,
        )
      : () => undefined;
  let checking: Promise<void> | null = null;
  const checkArea = (): Promise<void> => {
    if (input.area === undefined || limit !== null) return Promise.resolve();
    checking ??= input.area
      .check()
      .then((excess) => {
        if (excess !== null && limit === null) {
          workspaceExcess = excess;
          stop("workspace_limit");
        }
      })
      .finally(() => {
        checking = null;
      });
    return checking;
  };
  // On the tick every live run shares, so their checks share one statfs reading.
  const stopAreaPoll = input.area
    ? sharedTicker.every(input.area.intervalMs, () => void checkArea())
    : () => undefined;

  const exit = await exited;
  const durationMs = Math.round(input.now() - started);
  clearTimeout(timer);
  unwatch();
  stopAreaPoll();
  // The run ends with its main process: anything it left behind (same group, same cgroup) dies now.
  kill();
  // The exact count after the run is the caller's (it shares that walk with the planted-git check).
  await checking;
  (net as UserNet | null)?.stop();
  const oomKilled = cgroup?.oomKilled() ?? false;
  memory.finish(cgroup?.peakBytes() ?? null);
  // Every member is killed now; the folders go once the kernel has reaped them, while the result is recorded.
  void cgroup?.release();
  await drain([stdout, stderr], 500);

  return {
    exit,
    limit,
    ...(workspaceExcess ? { workspaceExcess } : {}),
    ...output(),
    oomKilled,
    ...(setupError === undefined ? {} : { setupError }),
    peakMemoryBytes: memory.peak(),
    durationMs,
    warnings,
  };
}

const WITHDRAWN = "the run was withdrawn before its script started (a check of the call refused it)";

const passes = (gate: () => Promise<boolean>): Promise<boolean> => gate().catch(() => false);

/** A run whose gate refused before anything was spawned. */
function withdrawn(durationMs: number): Supervised {
  return {
    exit: { code: null, signal: null },
    limit: null,
    output: "",
    stdout: "",
    stderr: "",
    truncated: false,
    oomKilled: false,
    setupError: WITHDRAWN,
    peakMemoryBytes: null,
    durationMs,
    warnings: [WITHDRAWN],
  };
}
