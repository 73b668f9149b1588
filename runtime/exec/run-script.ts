// Runs one skill script under limits (level 1), bubblewrap (level 2) or bubblewrap + static scan (level 3): plan → prepare → spawn/supervise → result.
import { randomUUID } from "node:crypto";
import { reportsSignalAsCode } from "./plan/host-tools.js";
import { planRun } from "./plan/plan.js";
import { prepareRun } from "./prepare/prepare.js";
import { outcomeOf, resultOf, stoppedResult } from "./result/result.js";
import { supervise } from "./supervise/supervise.js";
import type { RunRequest, RunResult } from "./types.js";

export { resetUnsandboxedWarning } from "./plan/sandbox.js";

export interface RunDeps {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  cgroupRoot?: string;
}

/** Runs `req`; every outcome (including refusals) is one RunResult, only our own bugs throw. */
export async function runScript(req: RunRequest, deps: RunDeps = {}): Promise<RunResult> {
  const platform = deps.platform ?? process.platform;
  const hostEnv = deps.env ?? process.env;
  const runId = req.runId ?? `sg-${randomUUID()}`;
  const head = { req, runId, command: [req.runner, req.scriptPath, ...req.args] };
  const planned = await planRun(req, runId, platform, hostEnv);
  if ("stopped" in planned) return stoppedResult(head, planned.stopped);
  const { plan } = planned;
  const ready = await prepareRun(plan, hostEnv, deps.cgroupRoot);
  if ("stopped" in ready) return stoppedResult(head, ready.stopped);
  const { prepared } = ready;
  const { setup } = prepared;

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
  }).finally(async () => {
    setup?.release();
    await prepared.scratch.remove();
  });
  const area = prepared.area ? await prepared.area.final(setup !== null) : null;
  const planted = (await setup?.removePlantedGit(area?.scan ?? undefined)) ?? [];
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
