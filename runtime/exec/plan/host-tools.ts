// Host executables a run needs (toolchain, prlimit, the level-1 guard), looked up per PATH or uid they depend on.
import { execFile } from "node:child_process";
import { readFile, realpath } from "node:fs/promises";
import { findExecutable, resolveShim } from "../runner.js";

export const SYSTEM_PATH = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** Runners a script may call by name (a Python helper starting `uv run`, a shell helper starting `bun`). */
const TOOLCHAIN = ["python3", "uv", "node"];

/** Keyed by the PATH searched: a second PATH (another session, a test) gets its own answer. */
const toolchainByPath = new Map<string, Promise<string[]>>();
const prlimitByPath = new Map<string, string | null>();

/** Real paths of the host's toolchain executables on `searchPath` (pyenv shims resolved). */
export function hostToolchain(searchPath: string | undefined): Promise<string[]> {
  const key = searchPath ?? "";
  let found = toolchainByPath.get(key);
  if (found === undefined) {
    found = Promise.all(
      TOOLCHAIN.map((name) => findExecutable(name, searchPath))
        .filter((path): path is string => path !== null)
        .map((path) => realpath(resolveShim(path))),
    );
    toolchainByPath.set(key, found);
  }
  return found;
}

/** prlimit on `searchPath`: a PATH walk of stat calls is not redone on every run. */
export function prlimitFor(searchPath: string): string | null {
  if (!prlimitByPath.has(searchPath)) prlimitByPath.set(searchPath, findExecutable("prlimit", searchPath));
  return prlimitByPath.get(searchPath) ?? null;
}

/** Keyed by uid: a normal user needs its own user namespace for the pid namespace, root does not. */
const guardByUid = new Map<number, Promise<string[]>>();

function succeeds(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: 10_000 }, (error) => resolve(error === null));
  });
}

/**
 * Level 1 (and an unsandboxed run): the script must not outlive a killed or crashed skillgate. setpriv gives
 * the first process a parent-death SIGKILL; unshare puts the run in its own pid namespace whose init it kills
 * when it dies itself, which takes every setsid'ed descendant along (no cgroup needed). A normal user needs a
 * user namespace for that; where unshare cannot make one, only the parent-death signal remains.
 */
export function levelOneGuard(uid = process.getuid?.() ?? 0): Promise<string[]> {
  let guard = guardByUid.get(uid);
  if (guard === undefined) {
    guard = buildGuard(uid);
    guardByUid.set(uid, guard);
  }
  return guard;
}

async function buildGuard(uid: number): Promise<string[]> {
  const setpriv = findExecutable("setpriv", SYSTEM_PATH.join(":"));
  const unshare = findExecutable("unshare", SYSTEM_PATH.join(":"));
  const death = setpriv === null ? [] : [setpriv, "--pdeathsig", "KILL", "--"];
  let pidns: string[] = [];
  if (unshare !== null) {
    const user = uid === 0 ? [] : ["--user", "--map-current-user"];
    const candidate = [unshare, ...user, "--pid", "--fork", "--kill-child=SIGKILL", "--"];
    if (await succeeds(candidate[0] as string, [...candidate.slice(1), "true"])) pidns = candidate;
  }
  // The script must not be the namespace's init: init ignores its own fatal signals (a crash would read as
  // exit 0). sh waits for it and exits 128+N when it dies of signal N, which is mapped back like bwrap's code.
  const reaper = pidns.length > 0 ? ["/bin/sh", "-c", '"$@"; exit $?', "sh"] : [];
  return [...death, ...pidns, ...reaper];
}

/** True when `argv` runs in a pid namespace of its own (bwrap, or the level-1 guard): exit 128+N means signal N. */
export function reportsSignalAsCode(argv: readonly string[]): boolean {
  return argv.includes("--kill-child=SIGKILL");
}

let hardNproc: Promise<number> | null = null;

/** This process's hard RLIMIT_NPROC (what prlimit may set without raising it); a process constant. */
export function hardNprocLimit(): Promise<number> {
  hardNproc ??= readFile("/proc/self/limits", "utf8").then((text) => {
    const line = /^Max processes\s+\S+\s+(\S+)/m.exec(text)?.[1];
    return line === undefined || line === "unlimited" ? 1 << 22 : Number(line);
  });
  return hardNproc;
}
