// The Python hook of a held sandbox: the interpreter starts while the sandbox waits, and runs the script as its main program once released.
import { createHash } from "node:crypto";
import { access, chmod, mkdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../../workspace/index.js";
import { PYTHON_HOOK_MOUNT } from "../bwrap.js";
import type { RunRequest } from "../types.js";

/**
 * Imported by Python as `sitecustomize`, the last step of its start-up (after site-packages and their .pth files),
 * from the folder PYTHONPATH names in a held sandbox only. It says "r" on the descriptor in SKILLGATE_PY_GO_FD and
 * waits for "g" (anything else: the sandbox was discarded, exit without running anything). Then it takes itself out
 * of os.environ, sys.path, sys.path_importer_cache and sys.modules and imports the interpreter's own sitecustomize in
 * its place: when there is none, the ImportError naming it is what site expects. Python then runs the script as in
 * `python script.py`: its own frame at the bottom, its own tracebacks, exit status and module state.
 */
export const PYTHON_HOOK_SOURCE = `# skillgate: Python started ahead in a held sandbox; the script runs as the main program once the run is released.
import os
import sys


def _hold():
    here = os.path.dirname(__file__)
    fd = int(os.environ.pop("SKILLGATE_PY_GO_FD"))
    if os.environ.get("PYTHONPATH") == here:
        del os.environ["PYTHONPATH"]
    os.set_blocking(fd, True)
    os.write(fd, b"r")
    got = os.read(fd, 1)
    os.close(fd)
    if got != b"g":
        os._exit(70)
    while here in sys.path:
        sys.path.remove(here)
    sys.path_importer_cache.pop(here, None)
    del sys.modules["sitecustomize"]


_hold()
import sitecustomize  # noqa: E402,F401
`;

/** What a probe sandbox runs: nothing. An interpreter that skipped the hook runs it at once and never says "r". */
export const PYTHON_PROBE = "probe.py";

/** The variable naming the go descriptor inside the sandbox (the hook removes it before the script runs). */
export const GO_FD_VARIABLE = "SKILLGATE_PY_GO_FD";

/** Content-addressed, so a hook of another version is never run by mistake. */
export const PYTHON_HOOK_DIR = `hold-${createHash("sha256").update(PYTHON_HOOK_SOURCE).digest("hex").slice(0, 16)}`;

/** Runners the hook applies to: CPython's own executable names. */
export function isPythonRunner(runner: string): boolean {
  return /^python(3(\.\d+)?)?$/.test(basename(runner));
}

/** Where the hook lives on the host: outside every workspace (the sandbox sees it at PYTHON_HOOK_MOUNT). */
export function pythonHookCacheDir(home: string): string {
  return join(home, "cache", "python");
}

const written = new Set<string>();

/** The hook's folder in `cacheDir` (sitecustomize.py and the empty probe), written once. */
export async function ensurePythonHook(cacheDir: string): Promise<string> {
  const dir = join(cacheDir, PYTHON_HOOK_DIR);
  if (written.has(dir)) return dir;
  const hook = join(dir, "sitecustomize.py");
  const present = await access(hook).then(
    () => true,
    () => false,
  );
  if (!present) {
    await mkdir(dir, { recursive: true });
    // Read by the sandbox's uid through the bind whatever the umask (the folders above it are not traversed).
    await chmod(dir, 0o755);
    await writeFileAtomic(join(dir, PYTHON_PROBE), "", { mode: 0o444 });
    await writeFileAtomic(hook, PYTHON_HOOK_SOURCE, { mode: 0o444 });
  }
  written.add(dir);
  return dir;
}

/**
 * A request whose runner is a Python interpreter, with the hook's folder named: bound read-only at PYTHON_HOOK_MOUNT
 * in every run of it (so a fresh run's sandbox argv equals a held one's), on PYTHONPATH only in a held sandbox.
 * Unchanged when SKILLGATE_EXACT_RUNNER=1.
 */
export async function withPythonHook(
  request: RunRequest,
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunRequest> {
  if (!isPythonRunner(request.runner) || env.SKILLGATE_EXACT_RUNNER === "1") return request;
  return { ...request, pythonHook: await ensurePythonHook(cacheDir) };
}

/**
 * The sandbox argv `argv` with PYTHONPATH (the hook's mount) and the go descriptor set first among its variables;
 * null when it does not bind the hook or set the environment (not a bwrap argv of a hooked request), or already sets
 * either variable (the run's own PYTHONPATH keeps the plain hold).
 */
export function pythonHookArgv(argv: readonly string[], fd: number): string[] | null {
  const start = argv.indexOf("--clearenv");
  const mounted = argv.some((arg, at) => arg === "--ro-bind" && argv[at + 2] === PYTHON_HOOK_MOUNT);
  if (start < 0 || !mounted) return null;
  for (let at = start + 1; argv[at] === "--setenv"; at += 3) {
    if (argv[at + 1] === "PYTHONPATH" || argv[at + 1] === GO_FD_VARIABLE) return null;
  }
  return [
    ...argv.slice(0, start + 1),
    "--setenv",
    "PYTHONPATH",
    PYTHON_HOOK_MOUNT,
    "--setenv",
    GO_FD_VARIABLE,
    String(fd),
    ...argv.slice(start + 1),
  ];
}

const probes = new Map<string, Promise<boolean>>();

/**
 * Whether `req.runner` imports the hook (once per interpreter file and process): a sandbox of the run's plan is
 * held with the empty probe as its script. Only an interpreter that said "r" gets the hook for real runs, so one
 * that skips sitecustomize (a wrapper passing -S or -I) can never run a script before its run is released.
 */
export async function pythonHookHonoured(
  req: RunRequest,
  holdProbe: (probe: RunRequest) => Promise<{ end(patienceMs: number): Promise<void> } | null>,
  signal?: AbortSignal,
): Promise<boolean> {
  if (req.pythonHook === undefined) return false;
  const info = await stat(req.runner).catch(() => null);
  if (info === null) return false;
  const key = `${req.runner}\u0000${info.dev}:${info.ino}:${info.mtimeMs}:${info.size}`;
  let probe = probes.get(key);
  if (probe === undefined) {
    probe = holdProbe({
      ...req,
      scriptPath: `${PYTHON_HOOK_MOUNT}/${PYTHON_PROBE}`,
      scriptName: PYTHON_PROBE,
      args: [],
    }).then(async (held) => {
      if (held === null) {
        // A probe cut short by a closing pool says nothing about the interpreter: asked again next time.
        if (signal?.aborted) probes.delete(key);
        return false;
      }
      await held.end(0);
      return true;
    });
    probes.set(key, probe);
  }
  return probe;
}
