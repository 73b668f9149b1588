// Runs one skill script under limits (level 1), bubblewrap (level 2) or bubblewrap + static scan (level 3).
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  accessSync,
  existsSync,
  constants as fsConstants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { homedir, constants as osConstants, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { skillgateHome } from "../config/home.js";
import { isSkillgateError } from "../errors.js";
import { type BwrapFeatures, type BwrapPlan, bwrapArgv, installationPrefix, probeBwrap } from "./bwrap.js";
import { createPidsCgroup, type PidsCgroup } from "./cgroup.js";
import { filterRunEnv } from "./env.js";
import { DEFAULT_SANDBOX_UID } from "./identity.js";
import { macosSandboxProfile } from "./macos-profile.js";
import { findSlirp4netns } from "./netns.js";
import { userTaskCount } from "./proc-tree.js";
import { CACHE_ENV_NAMES } from "./run-plan.js";
import { findExecutable, ownBinDir, resolveShim } from "./runner.js";
import { prepareSandbox, type SandboxSetup } from "./sandbox-setup.js";
import { scanGate } from "./scan-gate.js";
import { sensitiveHomePaths } from "./sensitive.js";
import { supervise } from "./supervise.js";
import type { RunRequest, RunResult, RunStatus, ScanFinding } from "./types.js";

const GIB = 1024 * 1024 * 1024;
const MEMORY_SLACK_BYTES = 16 * 1024 * 1024;
const SANDBOX_UID_HOME = "/tmp/home";
const SYSTEM_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** Runners a script may call by name (a Python helper starting `uv run`, a shell helper starting `bun`). */
const TOOLCHAIN = ["python3", "uv", "node"];
let toolchain: string[] | null = null;

/** Real paths of the host's toolchain executables (pyenv shims resolved), looked up once per process. */
function hostToolchain(searchPath: string | undefined): string[] {
  toolchain ??= TOOLCHAIN.map((name) => findExecutable(name, searchPath))
    .filter((path): path is string => path !== null)
    .map((path) => realpathSync(resolveShim(path)));
  return toolchain;
}

/** prlimit's path per PATH searched: a PATH walk of stat calls is not redone on every run. */
const prlimitByPath = new Map<string, string | null>();

function prlimitFor(searchPath: string): string | null {
  if (!prlimitByPath.has(searchPath)) prlimitByPath.set(searchPath, findExecutable("prlimit", searchPath));
  return prlimitByPath.get(searchPath) ?? null;
}

/** The unsandboxed warning is given once per process, as promised by the opt-in. */
let unsandboxedWarningGiven = false;

/** Lets tests observe the once-per-process warning from a clean state. */
export function resetUnsandboxedWarning(): void {
  unsandboxedWarningGiven = false;
}

interface SandboxChoice {
  kind: "bwrap" | "sandbox-exec" | "none";
  bwrap?: string;
  features?: BwrapFeatures;
  reason?: string;
}

function chooseSandbox(req: RunRequest, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): SandboxChoice {
  if (req.sandboxLevel === 1) return { kind: "none" };
  if (platform === "linux") {
    const bwrap =
      req.bwrapPath ?? env.SKILLGATE_BWRAP ?? findExecutable("bwrap", env.PATH) ?? "bwrap (not on PATH)";
    const probe = probeBwrap(bwrap, join(skillgateHome(env), "cache", "bwrap-probe"));
    return probe.ok
      ? { kind: "bwrap", bwrap, features: probe.features }
      : { kind: "none", reason: probe.reason };
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

/** Signal name for an exit code bwrap reports as 128+N when its child died by signal N. */
function signalFromBwrapCode(code: number): string | null {
  if (code <= 128 || code > 128 + 64) return null;
  const signals = osConstants.signals as unknown as Record<string, number>;
  const found = Object.entries(signals).find(([, value]) => value === code - 128);
  return found ? found[0] : null;
}

/**
 * RLIMIT_NPROC counts every task of the real uid, not just the run's. Root is exempt from it (the
 * pids cgroup limits root's runs instead); for another user the run may add `max` tasks to those
 * the user already has, else a busy desktop session would leave a script no fork at all.
 */
function nprocLimit(max: number, hasCgroup: boolean, platform: NodeJS.Platform, runUid?: number): number {
  const uid = runUid ?? process.getuid?.();
  // Runs dropped to the shared sandbox uid would count each other's tasks; their pids cgroup is the limit.
  if (hasCgroup && runUid !== undefined && runUid !== process.getuid?.()) return hardNprocLimit();
  if (hasCgroup || uid === undefined || uid === 0 || platform !== "linux") return max;
  return max + userTaskCount(uid);
}

/** slirp4netns, run as a normal user, opens /dev/net/tun itself (root always may). */
function tunAccessProblem(): string | null {
  if (process.getuid?.() === 0) return null;
  try {
    accessSync("/dev/net/tun", fsConstants.R_OK | fsConstants.W_OK);
    return null;
  } catch (error) {
    return `/dev/net/tun is not readable and writable for uid ${process.getuid?.()} (${(error as NodeJS.ErrnoException).code})`;
  }
}

let guard: string[] | null = null;

/**
 * Level 1 (and an unsandboxed run): the script must not outlive a killed or crashed skillgate. setpriv gives
 * the first process a parent-death SIGKILL; unshare puts the run in its own pid namespace whose init it kills
 * when it dies itself, which takes every setsid'ed descendant along (no cgroup needed). A normal user needs a
 * user namespace for that; where unshare cannot make one, only the parent-death signal remains.
 */
function levelOneGuard(): string[] {
  if (guard !== null) return guard;
  const setpriv = findExecutable("setpriv", SYSTEM_PATH.join(":"));
  const unshare = findExecutable("unshare", SYSTEM_PATH.join(":"));
  const death = setpriv === null ? [] : [setpriv, "--pdeathsig", "KILL", "--"];
  let pidns: string[] = [];
  if (unshare !== null) {
    const user = process.getuid?.() === 0 ? [] : ["--user", "--map-current-user"];
    const candidate = [unshare, ...user, "--pid", "--fork", "--kill-child=SIGKILL", "--"];
    const probe = spawnSync(candidate[0] as string, [...candidate.slice(1), "true"], {
      stdio: "ignore",
      timeout: 10_000,
    });
    if (probe.status === 0) pidns = candidate;
  }
  // The script must not be the namespace's init: init ignores its own fatal signals (a crash would read as
  // exit 0). sh waits for it and exits 128+N when it dies of signal N, which is mapped back like bwrap's code.
  const reaper = pidns.length > 0 ? ["/bin/sh", "-c", '"$@"; exit $?', "sh"] : [];
  guard = [...death, ...pidns, ...reaper];
  return guard;
}

let hardNproc: number | null = null;

/** This process's hard RLIMIT_NPROC (what prlimit may set without raising it). */
function hardNprocLimit(): number {
  if (hardNproc === null) {
    const line = /^Max processes\s+\S+\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    hardNproc = line === undefined || line === "unlimited" ? 1 << 22 : Number(line);
  }
  return hardNproc;
}

const MEMORY_MESSAGES =
  /MemoryError|Cannot allocate memory|out of memory|bad_alloc|heap limit|Allocation failed|ENOMEM/i;

/** Runs `req`; every outcome (including refusals) is one RunResult, only our own bugs throw. */
export async function runScript(
  req: RunRequest,
  deps: { platform?: NodeJS.Platform; env?: NodeJS.ProcessEnv; now?: () => number; cgroupRoot?: string } = {},
): Promise<RunResult> {
  const platform = deps.platform ?? process.platform;
  const hostEnv = deps.env ?? process.env;
  const now = deps.now ?? (() => performance.now());
  const runId = req.runId ?? `sg-${randomUUID()}`;
  const command = [req.runner, req.scriptPath, ...req.args];
  let result = baseResult(req, runId, command);
  const script = req.scriptName ?? basename(req.scriptPath);

  let findings: ScanFinding[] | undefined;
  if (req.sandboxLevel === 3) {
    const gate = await scanGate(req);
    if (gate.refusal !== null) {
      return {
        ...result,
        status: "refused",
        message: gate.refusal,
        ...(gate.findings ? { findings: gate.findings } : {}),
      };
    }
    findings = gate.findings;
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
  if (sandbox.features && !sandbox.features.disableUserns) {
    warnings.push(
      "this bubblewrap has no --disable-userns (needs >= 0.8): scripts may create nested user namespaces; fix: upgrade bubblewrap",
    );
  }
  const sandboxed = sandbox.kind !== "none";
  result = { ...result, sandboxed, findings };

  for (const path of req.persistentPaths ?? []) mkdirSync(path, { recursive: true });
  // bwrap gives the run a private /tmp (HOME inside it); otherwise a throwaway folder on the host.
  const scratch = sandbox.kind === "bwrap" ? null : mkdtempSync(join(tmpdir(), "skillgate-run-"));
  const home = scratch === null ? SANDBOX_UID_HOME : join(scratch, "home");
  const tmp = req.tmpDir ?? (scratch === null ? "/tmp" : join(scratch, "tmp"));
  if (scratch !== null) mkdirSync(home);
  if (req.tmpDir !== undefined || scratch !== null) mkdirSync(tmp, { recursive: true });
  const writableExtras = [...(req.persistentPaths ?? []), ...(req.tmpDir === undefined ? [] : [req.tmpDir])];

  const tools = [req.runner, process.execPath, ...hostToolchain(hostEnv.PATH)];
  const toolPrefixes = tools
    .map((tool) => installationPrefix(tool, homedir()))
    .filter((prefix): prefix is string => prefix !== null);
  const ownModules = dirname(ownBinDir());
  const pathDirs = [...new Set([...tools.map((tool) => dirname(tool)), ownBinDir(), ...SYSTEM_PATH])];
  const filtered = filterRunEnv(req.env, CACHE_ENV_NAMES);
  if (filtered.dropped.length > 0) {
    warnings.push(
      `environment variables not passed to the script (not allowed): ${filtered.dropped.join(", ")}`,
    );
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
  const cgroupResult = createPidsCgroup(
    runId,
    limits.maxProcesses + (sandbox.kind === "bwrap" ? 2 : 0),
    deps.cgroupRoot,
    // bwrap's own two processes and the wrappers need a few MiB beyond the script's limit.
    limits.memoryBytes + MEMORY_SLACK_BYTES,
  );
  const cgroup: PidsCgroup | null = "cgroup" in cgroupResult ? cgroupResult.cgroup : null;
  if ("reason" in cgroupResult && process.getuid?.() === 0) {
    warnings.push(
      `process limit not enforced: running as root (RLIMIT_NPROC does not apply) and ${cgroupResult.reason}; fix: run skillgate as a normal user or give it a pids cgroup controller`,
    );
  }

  if (platform === "linux" && (cgroup === null || cgroup.memoryDir === null)) {
    warnings.push(
      "memory limit counts resident memory only (no memory cgroup: skillgate is not root or the controller is missing), so tmpfs files and memfds are not counted; fix: run skillgate as root with the memory controller for a full limit",
    );
  }
  const handshake = sandbox.kind === "bwrap" && (cgroup !== null || req.network);
  // A normal user's slirp4netns must join the user namespace that owns the sandbox's network namespace. bwrap
  // nests a second one when the uid inside differs or --disable-userns is given; keep one level then (seccomp
  // still denies any new user namespace).
  const uid = process.getuid?.() ?? 0;
  const userNsForNetwork =
    sandbox.kind === "bwrap" && req.network && uid !== 0 && sandbox.features
      ? {
          innerId: { uid, gid: process.getgid?.() ?? uid },
          features: { ...sandbox.features, disableUserns: false },
        }
      : null;
  const slirp = sandbox.kind === "bwrap" && req.network ? findSlirp4netns() : null;
  const tunProblem = sandbox.kind === "bwrap" && req.network && slirp !== null ? tunAccessProblem() : null;
  if (tunProblem !== null) {
    cgroup?.destroy();
    return {
      ...result,
      status: "sandbox_unavailable",
      warnings,
      message: `SANDBOX_UNAVAILABLE: script '${script}' is granted the network, but its user-mode network cannot start: ${tunProblem}; fix: make /dev/net/tun usable (its usual mode is 0666), run skillgate as root, or remove the network grant (exec.grants) of this skill`,
    };
  }
  if (sandbox.kind === "bwrap" && req.network && slirp === null) {
    cgroup?.destroy();
    return {
      ...result,
      status: "sandbox_unavailable",
      warnings,
      message: `SANDBOX_UNAVAILABLE: script '${script}' is granted the network, which runs through user-mode networking (slirp4netns) in its own network namespace so the host's loopback services stay unreachable, but slirp4netns is not installed; fix: apt-get install slirp4netns, or remove the network grant (exec.grants) of this skill`,
    };
  }
  const sensitivePaths = sensitiveHomePaths(homedir());
  let setup: SandboxSetup | null = null;
  if (sandbox.kind === "bwrap") {
    try {
      setup = prepareSandbox(
        {
          writablePaths: req.writablePaths,
          persistentPaths: writableExtras,
          ...(req.tmpDir === undefined ? {} : { tmpDir: req.tmpDir }),
          sensitivePaths,
          sandboxUid: req.sandboxUid ?? DEFAULT_SANDBOX_UID,
          network: req.network,
          firstFd: handshake ? 5 : 3,
        },
        planBase(),
      );
    } catch (error) {
      cgroup?.destroy();
      if (!isSkillgateError(error)) throw error;
      return { ...result, status: "sandbox_unavailable", message: error.message, warnings };
    }
    warnings.push(...setup.warnings);
  }
  const prlimit = prlimitFor(hostEnv.PATH ?? SYSTEM_PATH.join(":"));
  const limitArgv =
    prlimit === null
      ? []
      : [
          prlimit,
          `--nproc=${nprocLimit(limits.maxProcesses, cgroup !== null, platform, setup?.identity.uid)}`,
          `--fsize=${limits.maxFileSizeBytes}`,
          `--nofile=${limits.maxOpenFiles}`,
          "--core=0",
          // A per-process backstop only: the tree limit is the RSS poll. Runtimes reserve far more
          // writable virtual memory than they use (bun, esbuild), hence the 1 GiB floor.
          `--data=${Math.max(limits.memoryBytes * 2, GIB)}`,
          "--",
        ];
  if (prlimit === null)
    warnings.push(
      "resource limits (processes, file size, open files, core) not set: prlimit (util-linux) is missing",
    );

  function planBase(): BwrapPlan {
    return {
      bwrap: sandbox.bwrap ?? "bwrap",
      command,
      cwd: req.cwd,
      skillDir: req.skillDir,
      writablePaths: req.writablePaths,
      persistentPaths: writableExtras,
      readOnlyPaths: [...new Set([...toolPrefixes, ownModules, ...(req.readOnlyPaths ?? [])])],
      network: req.network,
      env: scriptEnv,
      tmpSizeBytes: Math.min(limits.maxFileSizeBytes, 512 * 1024 * 1024),
      shmSizeBytes: Math.min(limits.maxFileSizeBytes, limits.memoryBytes),
      sensitivePaths,
      ...(sandbox.features ? { features: sandbox.features } : {}),
      ...(handshake ? { infoFd: 3, blockFd: 4 } : {}),
      ...(userNsForNetwork ? userNsForNetwork : {}),
    };
  }
  let argv: string[];
  if (sandbox.kind === "bwrap" && setup !== null) {
    argv = [...limitArgv, ...setup.prefix, ...bwrapArgv({ ...planBase(), ...setup.plan })];
  } else if (sandbox.kind === "sandbox-exec") {
    const profile = macosSandboxProfile({
      readPaths: [req.skillDir, req.cwd, ...toolPrefixes, ownModules, ...(req.readOnlyPaths ?? [])],
      writePaths: [...req.writablePaths, ...writableExtras, ...(scratch ? [scratch] : [])],
      deniedPaths: sensitiveHomePaths(homedir()),
      network: req.network,
    });
    argv = [...limitArgv, "/usr/bin/sandbox-exec", "-p", profile, "--", ...command];
  } else {
    argv = [...limitArgv, ...(platform === "linux" ? levelOneGuard() : []), ...command];
  }

  const run = await supervise({
    argv,
    cwd: req.cwd,
    env: sandbox.kind === "bwrap" ? { PATH: SYSTEM_PATH.join(":") } : scriptEnv,
    limits,
    cgroup,
    handshake,
    ...(setup ? { extraFds: setup.fds } : {}),
    ...(slirp !== null ? { userNet: { slirp4netns: slirp, asRoot: process.getuid?.() === 0 } } : {}),
    ...(setup?.stderrPreamble ? { stderrPreamble: setup.stderrPreamble } : {}),
    pollIntervalMs: req.pollIntervalMs ?? 50,
    platform,
    now,
  }).finally(() => {
    setup?.release();
    if (scratch !== null) rmSync(scratch, { recursive: true, force: true });
  });
  warnings.push(...run.warnings);
  const outcome = run.outcome;
  const planted = setup?.removePlantedGit() ?? [];

  let exitCode = run.code;
  let signal: string | null = run.signal;
  if (
    (sandbox.kind === "bwrap" || guard?.includes("--kill-child=SIGKILL")) &&
    exitCode !== null &&
    signal === null
  ) {
    const inner = signalFromBwrapCode(exitCode);
    if (inner !== null) {
      signal = inner;
      exitCode = null;
    }
  }
  let status: RunStatus;
  if (run.setupError !== undefined) status = "sandbox_unavailable";
  else if (planted.length > 0) status = "sandbox_violation";
  else if (outcome !== null) status = outcome;
  else if (run.spawnError) status = "nonzero_exit";
  else if (signal !== null) status = "signal";
  else if (exitCode === 0) status = "ok";
  else status = "nonzero_exit";
  if (
    (status === "nonzero_exit" || status === "signal") &&
    (run.oomKilled || MEMORY_MESSAGES.test(run.output))
  )
    status = "memory_limit";

  return {
    ...result,
    status,
    exitCode: outcome === null ? exitCode : null,
    signal: outcome === null ? signal : "SIGKILL",
    timedOut: status === "timeout",
    durationMs: run.durationMs,
    peakMemoryBytes: run.peakMemoryBytes,
    output: run.output,
    stdout: run.stdout,
    stderr: run.stderr,
    truncated: run.truncated,
    warnings,
    ...(run.spawnError ? { message: `could not start ${argv[0]}: ${run.spawnError.message}` } : {}),
    ...limitMessage(status, script, req),
    ...(run.setupError !== undefined
      ? {
          message: `SANDBOX_UNAVAILABLE: the sandbox for script '${script}' could not be set up, so the script did not run: ${run.setupError}; fix: see the cause, or remove the grant that needs it`,
        }
      : {}),
    ...(planted.length > 0
      ? {
          message: `SANDBOX_VIOLATION: script '${script}' created git metadata, which would run code on the host's next git command; removed: ${planted.join(", ")}; fix: a skill script must not create .git entries`,
        }
      : {}),
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
