// Shapes of a script run request and its one result record, shared by the runner, sandbox and tools.
import type { ErrorCode } from "../errors.js";
import type { RunOutcome, RunStatus } from "./outcome.js";

export type { RunOutcome, RunStatus } from "./outcome.js";

export type SandboxLevel = 1 | 2 | 3;

/** One static-scan finding (shape of runtime/scan's Finding, kept structural so exec does not depend on scan). */
export interface ScanFinding {
  severity: string;
  message: string;
  file: string;
  line: number;
}

export interface RunLimits {
  timeoutMs: number;
  memoryBytes: number;
  outputBytes: number;
  maxProcesses: number;
  maxFileSizeBytes: number;
  maxOpenFiles: number;
}

export interface RunRequest {
  /** Executable (absolute path or PATH name) resolved by runner resolution. */
  runner: string;
  /** Validated real path of the script (absolute). */
  scriptPath: string;
  /** The script's name in messages when scriptPath is another file (the .ts fast path's compiled copy). */
  scriptName?: string;
  /** Arguments after the script path (already shlex-split). */
  args: string[];
  /** Working directory (the workspace root). */
  cwd: string;
  /** Skill folder: mounted read-only in the sandbox. */
  skillDir: string;
  /** Folders writable inside the sandbox (workspace root, or only OUT). */
  writablePaths: string[];
  /** Extra variables: DUT, OUT, SKILLGATE_RUN_ID, and variables the skill declares. Filtered by the allow-list. */
  env: Record<string, string>;
  /** Network allowed (the skill declared it). */
  network: boolean;
  /**
   * Host folder used as TMPDIR (bound writable at the same path), so temp files a helper keeps on failure
   * stay readable after the run; default: a private tmpfs /tmp that vanishes with the sandbox.
   */
  tmpDir?: string;
  /** Cache folders that persist between runs (e.g. uv, bun caches), bound writable. */
  persistentPaths?: string[];
  /** Extra folders the run may read (e.g. a compiled-helper cache holding the script that runs). */
  readOnlyPaths?: string[];
  /**
   * A node launcher (exec/prepared/launcher.ts) in one of readOnlyPaths that a prepared sandbox may start ahead in
   * place of `runner scriptPath`: node boots while the sandbox is held and imports scriptPath once the run is released.
   */
  launcher?: string;
  /**
   * The Python hook's host folder (exec/prepared/python-hook.ts), bound read-only at PYTHON_HOOK_MOUNT in every run
   * of the request: a prepared sandbox may start the interpreter ahead with it on PYTHONPATH, and the script runs as
   * the main program once the run is released.
   */
  pythonHook?: string;
  limits: RunLimits;
  sandboxLevel: SandboxLevel;
  /** Explicit opt-in to run unsandboxed when the OS sandbox is unavailable. */
  allowUnsandboxed: boolean;
  /** Level 3: the static scan (runtime/scan's scanFiles). Without it a level-3 run is refused. */
  scan?: (paths: string[]) => Promise<ScanFinding[]>;
  /** Level 3: files to scan (default: the script). */
  scanPaths?: string[];
  /** Level 3: critical findings were approved for this skill (exec.approve_scan_findings). */
  scanApproved?: boolean;
  /** Host uid sandboxed runs use when skillgate runs as root (default DEFAULT_SANDBOX_UID; exec.sandbox_uid). */
  sandboxUid?: number;
  /** bubblewrap binary (default: $SKILLGATE_BWRAP, else `bwrap` on PATH). */
  bwrapPath?: string;
  /** Unique id of this run (default: random); also set as SKILLGATE_RUN_ID. */
  runId?: string;
  /** Memory polling period (default 50 ms). */
  pollIntervalMs?: number;
  /** Per-run budget of the writable area (workspace and run temp folder): new entries and grown bytes. */
  workspaceBudget?: WorkspaceBudget;
  /**
   * The caller's checks that may still refuse the run: awaited before any of the script runs, while bwrap builds the
   * sandbox when the run has the hand-shake. False: the script never starts and the run ends `unavailable`.
   */
  startGate?: () => Promise<boolean>;
}

export interface WorkspaceBudget {
  files: number;
  bytes: number;
}

export interface RunResult {
  /** How the run ended: the one source of status, code, message and fix. */
  outcome: RunOutcome;
  /** outcome.status, kept flat for callers and receipts. */
  status: RunStatus;
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  peakMemoryBytes: number | null;
  /** Combined output (stdout then stderr interleaved in arrival order), decoded as UTF-8 with replacement. */
  output: string;
  stdout: string;
  stderr: string;
  truncated: boolean;
  sandboxed: boolean;
  warnings: string[];
  /** Every outcome but ok: its stable code, and the rendered line (code, what failed, the fix; outcomeLine). */
  code?: ErrorCode;
  message?: string;
  /** Level 3: the scan findings (all severities) when the scan ran. */
  findings?: ScanFinding[];
  /** The run id (SKILLGATE_RUN_ID seen by the script). */
  runId?: string;
}
