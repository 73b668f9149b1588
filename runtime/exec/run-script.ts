// Runs one skill script under limits (level 1), bubblewrap (level 2) or bubblewrap + static scan (level 3).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, constants as osConstants, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { type BwrapPlan, bwrapArgv, installationPrefix, probeBwrap } from "./bwrap.js";
import { createPidsCgroup, type PidsCgroup } from "./cgroup.js";
import { filterRunEnv } from "./env.js";
import { MACOS_SYSTEM_READ_PATHS, macosSandboxProfile } from "./macos-profile.js";
import { processTree, residentBytes } from "./proc-tree.js";
import { CACHE_ENV_NAMES } from "./run-plan.js";
import { findExecutable, ownBinDir } from "./runner.js";
import { sensitiveHomePaths } from "./sensitive.js";
import type { RunRequest, RunResult, RunStatus, ScanFinding } from "./types.js";

const GIB = 1024 * 1024 * 1024;
const SANDBOX_UID_HOME = "/tmp/home";
const SYSTEM_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The unsandboxed warning is given once per process, as promised by the opt-in. */
let unsandboxedWarningGiven = false;

/** Lets tests observe the once-per-process warning from a clean state. */
export function resetUnsandboxedWarning(): void {
  unsandboxedWarningGiven = false;
}

type Outcome = Extract<RunStatus, "timeout" | "memory_limit" | "output_limit">;

interface SandboxChoice {
  kind: "bwrap" | "sandbox-exec" | "none";
  bwrap?: string;
  reason?: string;
}

function chooseSandbox(req: RunRequest, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SandboxChoice {
  if (req.sandboxLevel === 1) return { kind: "none" };
  if (platform === "linux") {
    const bwrap = req.bwrapPath ?? env.SKILLGATE_BWRAP ?? findExecutable("bwrap", env.PATH) ?? "bwrap (not on PATH)";
    const reason = probeBwrap(bwrap);
    return reason === null ? { kind: "bwrap", bwrap } : { kind: "none", reason };
  }
  if (platform === "darwin") {
    return existsSync("/usr/bin/sandbox-exec")
      ? { kind: "sandbox-exec" }
      : { kind: "none", reason: "/usr/bin/sandbox-exec is missing" };
  }
  return { kind: "none", reason: `no OS sandbox is implemented for platform ${platform}` };
}

function baseResult(req: RunRequest, runId: string, argv: string[]): RunResult {
  return {
    status: "ok",
    argv,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    peakMemoryBytes: null,
    output: "",
    stdout: "",
    stderr: "",
    truncated: false,
    sandboxed: req.sandboxLevel > 1,
    warnings: [],
    runId,
  };
}

function describeFindings(findings: ScanFinding[]): string {
  return findings.map((finding) => `${finding.file}:${finding.line} ${finding.message}`).join("; ");
}

/** Level 3 gate: null to go on, or the refused result. */
async function scanGate(req: RunRequest, result: RunResult): Promise<RunResult | null> {
  const script = basename(req.scriptPath);
  if (req.scan === undefined) {
    return {
      ...result,
      status: "refused",
      message: `SCAN_REFUSED: script '${script}' needs the static scan at sandbox level 3 but none was provided; fix: pass the scan (runtime/scan scanFiles) or lower exec.sandbox_level to 2`,
    };
  }
  const findings = await req.scan(req.scanPaths ?? [req.scriptPath]);
  const critical = findings.filter((finding) => finding.severity === "critical");
  if (critical.length > 0 && req.scanApproved !== true) {
    return {
      ...result,
      status: "refused",
      findings,
      message: `SCAN_REFUSED: script '${script}' has ${critical.length} critical scan finding(s): ${describeFindings(critical)}; fix: remove them, or approve the skill in exec.approve_scan_findings after review`,
    };
  }
  return findings.length > 0 ? { ...result, findings, status: "ok", message: "continue" } : null;
}

/** Signal name for an exit code bwrap reports as 128+N when its child died by signal N. */
function signalFromBwrapCode(code: number): string | null {
  if (code <= 128 || code > 128 + 64) return null;
  const signals = osConstants.signals as unknown as Record<string, number>;
  const found = Object.entries(signals).find(([, value]) => value === code - 128);
  return found ? found[0] : null;
}

const MEMORY_MESSAGES = /MemoryError|Cannot allocate memory|out of memory|bad_alloc|heap limit|Allocation failed|ENOMEM/i;

/** Runs `req`; every outcome (including refusals) is one RunResult, only our own bugs throw. */
export async function runScript(
  req: RunRequest,
  deps: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv; now?: () => number } = {},
): Promise<RunResult> {
  const platform = deps.platform ?? process.platform;
  const hostEnv = deps.env ?? process.env;
  const now = deps.now ?? (() => performance.now());
  const runId = req.runId ?? `sg-${randomUUID()}`;
  const command = [req.runner, req.scriptPath, ...req.args];
  let result = baseResult(req, runId, command);
  const script = basename(req.scriptPath);

  let findings: ScanFinding[] | undefined;
  if (req.sandboxLevel === 3) {
    const gate = await scanGate(req, result);
    if (gate?.status === "refused") return gate;
    findings = gate?.findings;
  }

  const sandbox = chooseSandbox(req, platform, hostEnv);
  const warnings: string[] = [];
  if (sandbox.kind === "none" && req.sandboxLevel > 1) {
    if (!req.allowUnsandboxed) {
      return {
        ...result,
        status: "sandbox_unavailable",
        sandboxed: false,
        findings,
        message: `SANDBOX_UNAVAILABLE: cannot run script '${script}' at sandbox level ${req.sandboxLevel}: ${sandbox.reason}; fix: apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox`,
      };
    }
    if (!unsandboxedWarningGiven) {
      unsandboxedWarningGiven = true;
      warnings.push(
        `SANDBOX_UNAVAILABLE: scripts run WITHOUT the OS sandbox (${sandbox.reason}) because exec.allow_unsandboxed is true; only resource limits apply`,
      );
    }
  }
  const sandboxed = sandbox.kind !== "none";
  result = { ...result, sandboxed, findings };

  const scratch = mkdtempSync(join(tmpdir(), "skillgate-run-"));
  for (const path of req.persistentPaths ?? []) mkdirSync(path, { recursive: true });
  const home = sandbox.kind === "bwrap" ? SANDBOX_UID_HOME : join(scratch, "home");
  const tmp = sandbox.kind === "bwrap" ? "/tmp" : join(scratch, "tmp");
  if (sandbox.kind !== "bwrap") {
    mkdirSync(home);
    mkdirSync(tmp);
  }

  const runnerPrefix = installationPrefix(req.runner, homedir());
  const nodePrefix = installationPrefix(process.execPath, homedir());
  const ownModules = dirname(ownBinDir());
  const pathDirs = [...new Set([dirname(req.runner), dirname(process.execPath), ownBinDir(), ...SYSTEM_PATH])];
  const filtered = filterRunEnv(req.env, CACHE_ENV_NAMES);
  if (filtered.dropped.length > 0) {
    warnings.push(`environment variables not passed to the script (not allowed): ${filtered.dropped.join(", ")}`);
  }
  const scriptEnv: Record<string, string> = {
    ...filtered.env,
    PATH: pathDirs.join(":"),
    HOME: home,
    LANG: "C.UTF-8",
    TMPDIR: tmp,
    SKILLGATE_RUN_ID: runId,
  };

  const limits = req.limits;
  const cgroupResult = createPidsCgroup(runId, limits.maxProcesses + (sandbox.kind === "bwrap" ? 2 : 0));
  const cgroup: PidsCgroup | null = "cgroup" in cgroupResult ? cgroupResult.cgroup : null;
  if (cgroup === null && process.getuid?.() === 0) {
    warnings.push(
      `process limit not enforced: running as root (RLIMIT_NPROC does not apply) and ${cgroupResult && "reason" in cgroupResult ? cgroupResult.reason : "no cgroup"}`,
    );
  }

  const prlimit = findExecutable("prlimit", hostEnv.PATH ?? SYSTEM_PATH.join(":"));
  const limitArgv =
    prlimit === null
      ? []
      : [
          prlimit,
          `--nproc=${limits.maxProcesses}`,
          `--fsize=${limits.maxFileSizeBytes}`,
          `--nofile=${limits.maxOpenFiles}`,
          "--core=0",
          // A per-process backstop only: the tree limit is the RSS poll. Runtimes reserve far more
          // writable virtual memory than they use (bun, esbuild), hence the 1 GiB floor.
          `--data=${Math.max(limits.memoryBytes * 2, GIB)}`,
          "--",
        ];
  if (prlimit === null) warnings.push("resource limits (processes, file size, open files, core) not set: prlimit (util-linux) is missing");

  let argv: string[];
  const handshake = sandbox.kind === "bwrap" && cgroup !== null;
  if (sandbox.kind === "bwrap") {
    const plan: BwrapPlan = {
      bwrap: sandbox.bwrap ?? "bwrap",
      command,
      cwd: req.cwd,
      skillDir: req.skillDir,
      writablePaths: req.writablePaths,
      persistentPaths: req.persistentPaths ?? [],
      readOnlyPaths: [
        ...new Set([runnerPrefix, nodePrefix, ownModules].filter((path): path is string => path !== null)),
      ],
      network: req.network,
      env: scriptEnv,
      tmpSizeBytes: Math.min(limits.maxFileSizeBytes, 512 * 1024 * 1024),
      sensitivePaths: sensitiveHomePaths(homedir()),
      ...(handshake ? { infoFd: 3, blockFd: 4 } : {}),
    };
    argv = [...limitArgv, ...bwrapArgv(plan)];
  } else if (sandbox.kind === "sandbox-exec") {
    const profile = macosSandboxProfile({
      readPaths: [req.skillDir, req.cwd, ...[runnerPrefix, nodePrefix, ownModules].filter((p): p is string => p !== null)],
      writePaths: [...req.writablePaths, ...(req.persistentPaths ?? []), scratch],
      deniedPaths: sensitiveHomePaths(homedir()),
      network: req.network,
    });
    argv = [...limitArgv, "/usr/bin/sandbox-exec", "-p", profile, "--", ...command];
  } else {
    argv = [...limitArgv, ...command];
  }

  const started = now();
  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: req.cwd,
    env: sandbox.kind === "bwrap" ? { PATH: SYSTEM_PATH.join(":") } : scriptEnv,
    // A new session and process group: level 1 kills the tree with kill(-pgid).
    detached: true,
    stdio: handshake ? ["ignore", "pipe", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
  });

  let outcome = null as Outcome | null;
  const chunks: Buffer[] = [];
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  let outputTotal = 0;
  let truncated = false;
  let peak = 0;

  const killTree = (): void => {
    const pid = child.pid;
    if (pid === undefined) return;
    const targets = new Set<number>(cgroup?.members() ?? []);
    if (platform === "linux") for (const member of processTree(pid, pid)) targets.add(member);
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
  const stop = (why: Outcome): void => {
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
  stderr.on("data", collect(stderrChunks));

  if (child.pid !== undefined && cgroup !== null) {
    if (handshake) {
      await releaseAfterCgroup(child, cgroup).catch((error: unknown) => {
        warnings.push(`sandbox start-up hand-shake failed: ${error instanceof Error ? error.message : String(error)}`);
        killTree();
      });
    } else {
      try {
        cgroup.add(child.pid);
      } catch {
        // exited already
      }
    }
  }

  const timer = setTimeout(() => stop("timeout"), limits.timeoutMs);
  const poll = setInterval(() => {
    const pid = child.pid;
    if (pid === undefined || platform !== "linux") return;
    const members = cgroup?.members() ?? processTree(pid, pid);
    const rss = residentBytes(members);
    if (rss > peak) peak = rss;
    if (rss > limits.memoryBytes) stop("memory_limit");
  }, req.pollIntervalMs ?? 50);

  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once("error", (error) => resolve({ code: null, signal: null, error }));
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const durationMs = Math.round(now() - started);
  clearTimeout(timer);
  clearInterval(poll);
  // The run ends with its main process: anything it left behind (same group, same cgroup) dies now.
  killTree();
  cgroup?.destroy();
  await drain([stdout, stderr], 500);
  rmSync(scratch, { recursive: true, force: true });

  const decoder = (buffers: Buffer[]) => new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(buffers));
  const output = decoder(chunks);
  let exitCode = exit.code;
  let signal: string | null = exit.signal;
  if (sandbox.kind === "bwrap" && exitCode !== null && signal === null) {
    const inner = signalFromBwrapCode(exitCode);
    if (inner !== null) {
      signal = inner;
      exitCode = null;
    }
  }
  let status: RunStatus;
  if (outcome !== null) status = outcome;
  else if (exit.error) status = "nonzero_exit";
  else if (signal !== null) status = "signal";
  else if (exitCode === 0) status = "ok";
  else status = "nonzero_exit";
  if ((status === "nonzero_exit" || status === "signal") && MEMORY_MESSAGES.test(output)) status = "memory_limit";

  return {
    ...result,
    status,
    exitCode: outcome === null ? exitCode : null,
    signal: outcome === null ? signal : "SIGKILL",
    timedOut: status === "timeout",
    durationMs,
    peakMemoryBytes: platform === "linux" ? peak : null,
    output,
    stdout: decoder(stdoutChunks),
    stderr: decoder(stderrChunks),
    truncated,
    warnings,
    ...(exit.error ? { message: `could not start ${argv[0]}: ${exit.error.message}` } : {}),
    ...limitMessage(status, script, req),
  };
}

function limitMessage(status: RunStatus, script: string, req: RunRequest): { message?: string } {
  const limits = req.limits;
  switch (status) {
    case "timeout":
      return {
        message: `script '${script}' exceeded the ${limits.timeoutMs / 1000} s time limit and was killed with its process tree; fix: make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)`,
      };
    case "memory_limit":
      return {
        message: `script '${script}' exceeded the memory limit of ${Math.round(limits.memoryBytes / 1048576)} MiB; fix: use less memory or raise exec.memory_mb for this skill`,
      };
    case "output_limit":
      return {
        message: `script '${script}' wrote more than ${limits.outputBytes} bytes to stdout+stderr and was killed; the output kept is the first ${limits.outputBytes} bytes; fix: write large results to a file under OUT or raise exec.output_bytes`,
      };
    default:
      return {};
  }
}

/** bwrap hand-shake: wait for its sandbox child, move both into the cgroup, then let it exec the script. */
async function releaseAfterCgroup(child: ChildProcess, cgroup: PidsCgroup): Promise<void> {
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
  if (child.pid !== undefined) cgroup.add(child.pid);
  if (typeof innerPid === "number") cgroup.add(innerPid);
  block.end("go");
  info.destroy();
}

/** Waits for both pipes to close, destroying them after `graceMs` (a killed tree may leave them half open). */
async function drain(streams: Readable[], graceMs: number): Promise<void> {
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
    new Promise<void>((resolve) => setTimeout(resolve, graceMs)),
  ]);
  for (const stream of streams) stream.destroy();
}
