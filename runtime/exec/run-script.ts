// Runs one skill script under limits (level 1), bubblewrap (level 2) or bubblewrap + static scan (level 3): plan → prepare → spawn/supervise → result.
import { randomUUID } from "node:crypto";
import { reportsSignalAsCode } from "./plan/host-tools.js";
import { type ExecPlan, planRun, type Stopped } from "./plan/plan.js";
import { type Prepared, prepareRun } from "./prepare/prepare.js";
import { type HeldSandbox, mismatch } from "./prepared/held.js";
import { type PreparedPool, planKey, sharedPreparedPool } from "./prepared/pool.js";
import { outcomeOf, resultOf, stoppedResult } from "./result/result.js";
import { supervise } from "./supervise/supervise.js";
import type { RunRequest, RunResult } from "./types.js";

export { resetUnsandboxedWarning } from "./plan/sandbox.js";

export interface RunDeps {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  cgroupRoot?: string;
  /** Sandboxes prepared ahead (default: the process's pool; null: none). */
  prepared?: PreparedPool | null;
}

type Ready = ({ plan: ExecPlan; prepared: Prepared } | { stopped: Stopped }) & {
  runId: string;
  held: HeldSandbox | null;
};

/** Plans and prepares the run; with a held sandbox, under its run id and cgroup, discarding it when it does not fit. */
async function planAndPrepare(
  req: RunRequest,
  held: HeldSandbox | null,
  pool: PreparedPool | null,
  deps: RunDeps,
  platform: NodeJS.Platform,
  hostEnv: NodeJS.ProcessEnv,
): Promise<Ready> {
  const runId = held?.runId ?? req.runId ?? `sg-${randomUUID()}`;
  const planned = await planRun(req, runId, platform, hostEnv);
  const ready =
    "stopped" in planned ? planned : await prepareRun(planned.plan, hostEnv, deps.cgroupRoot, held?.cgroup);
  if ("stopped" in ready || "stopped" in planned) {
    // A refusal does not depend on the sandbox; a held one is killed unused.
    if (held !== null) pool?.discard(held);
    return {
      stopped: "stopped" in ready ? ready.stopped : (planned as { stopped: Stopped }).stopped,
      runId,
      held: null,
    };
  }
  if (held === null || mismatch(held, ready.prepared, req) === null) {
    return { plan: planned.plan, prepared: ready.prepared, runId, held };
  }
  // Not this run's sandbox: it is killed unused and the run gets a fresh one, built for its own plan under a new
  // run id (the plan is kept: planning warns once per process, and nothing in it depends on the held sandbox).
  ready.prepared.setup?.release();
  pool?.discard(held);
  const freshId = `sg-${randomUUID()}`;
  const plan = { ...planned.plan, runId: freshId, env: { ...planned.plan.env, SKILLGATE_RUN_ID: freshId } };
  const again = await prepareRun(plan, hostEnv, deps.cgroupRoot);
  return "stopped" in again
    ? { stopped: again.stopped, runId: freshId, held: null }
    : { plan, prepared: again.prepared, runId: freshId, held: null };
}

/** Runs `req`; every outcome (including refusals) is one RunResult, only our own bugs throw. */
export async function runScript(req: RunRequest, deps: RunDeps = {}): Promise<RunResult> {
  const platform = deps.platform ?? process.platform;
  const hostEnv = deps.env ?? process.env;
  const pool = deps.prepared === undefined ? sharedPreparedPool(hostEnv) : deps.prepared;
  // A caller-chosen run id cannot take a held sandbox (its id is in the sandbox's environment).
  const held = req.runId === undefined && pool !== null ? await pool.take() : null;
  const ready = await planAndPrepare(req, held, pool, deps, platform, hostEnv);
  const { runId } = ready;
  const head = { req, runId, command: [req.runner, req.scriptPath, ...req.args] };
  if ("stopped" in ready) return stoppedResult(head, ready.stopped);
  const { plan, prepared } = ready;
  const { setup } = prepared;
  if (ready.held !== null) pool?.adopted();

  const run = await supervise({
    argv: prepared.argv,
    cwd: req.cwd,
    env: prepared.spawnEnv,
    limits: req.limits,
    cgroup: prepared.cgroup,
    handshake: prepared.handshake,
    ...(setup ? { extraFds: setup.fds } : {}),
    ...(prepared.slirp !== null
      ? { userNet: { slirp4netns: prepared.slirp, asRoot: process.getuid?.() === 0 } }
      : {}),
    ...(setup?.stderrPreamble ? { stderrPreamble: setup.stderrPreamble } : {}),
    ...(prepared.area ? { area: prepared.area } : {}),
    pollIntervalMs: req.pollIntervalMs ?? 50,
    platform,
    now: deps.now ?? (() => performance.now()),
    ...(ready.held ? { held: ready.held } : {}),
    ...(req.startGate ? { startGate: req.startGate } : {}),
  }).finally(async () => {
    setup?.release();
    await prepared.scratch.remove();
  });
  const area = prepared.area ? await prepared.area.final() : null;
  const planted = (await setup?.removePlantedGit(area?.scan ?? undefined)) ?? [];
  // Only a bwrap run with the cgroup hand-shake and no user-mode network can be prepared ahead.
  const preparable = setup !== null && prepared.handshake && prepared.slirp === null;
  pool?.afterRun(preparable ? planKey(prepared.argv, plan.runId, req) : null, ready.held !== null, req, {
    platform,
    hostEnv,
    ...(deps.cgroupRoot === undefined ? {} : { cgroupRoot: deps.cgroupRoot }),
  });
  const excess = run.workspaceExcess ?? area?.excess ?? undefined;
  const ended = {
    // A limit that stopped the run wins; else growth found after it (a burst between two checks) is the outcome.
    run:
      excess && run.limit === null
        ? { ...run, limit: "workspace_limit" as const, workspaceExcess: excess }
        : run,
    argv: prepared.argv,
    cwd: req.cwd,
    signalAsCode: setup !== null || reportsSignalAsCode(prepared.argv),
    planted,
  };
  const { outcome, exitCode, signal } = outcomeOf(plan, ended);
  return resultOf(plan, outcome, {
    exitCode,
    signal,
    durationMs: run.durationMs,
    peakMemoryBytes: run.peakMemoryBytes,
    output: run.output,
    stdout: run.stdout,
    stderr: run.stderr,
    truncated: run.truncated,
    sandboxed: plan.sandbox.kind !== "none",
    warnings: [...prepared.warnings, ...run.warnings, ...(area?.warnings ?? [])],
    ...(plan.findings ? { findings: plan.findings } : {}),
  });
}
