// The per-run budget of the writable area (new entries, grown bytes): a baseline walk, a statfs trigger while the run lives, a confirming walk.
import type { WorkspaceExcess } from "../outcome.js";
import { sharedUsage } from "../sampler-usage.js";

import type { WorkspaceBudget } from "../types.js";
import { areaSkip, DEFAULT_MAX_ENTRIES, scanWritableArea, type WritableScan } from "../writable-area.js";

/** exec.workspace_files / exec.workspace_mb defaults (config/schema.ts has the same), for runs given no budget. */
export const DEFAULT_WORKSPACE_BUDGET: WorkspaceBudget = { files: 10_000, bytes: 256 * 1024 * 1024 };

/** statfs every 100 ms costs one syscall per file system; a flood of ~50k files/s is caught within ~5k files. */
const TRIGGER_INTERVAL_MS = 100;
/** A statfs reading another run started this recently serves this run's check too (exec/sampler-usage.ts). */
const SHARE_WINDOW_MS = TRIGGER_INTERVAL_MS / 2;
/** A walk regardless of statfs, this often (statfs misses growth that deletions elsewhere offset). */
const WALK_INTERVAL_MS = 1_000;
/** Where statfs counts no inodes (btrfs, zfs report 0), the walk itself is the check, at most this often. */
const BLIND_WALK_INTERVAL_MS = 500;

export interface Measured {
  excess: WorkspaceExcess | null;
  /** The walk made, when one was (complete unless over budget). */
  scan: WritableScan | null;
  /** The budget could not be enforced (a baseline over the walk's cap). */
  warnings: string[];
}

/** A periodic check of the run's writable area while it runs, and the exact count after it. */
export interface AreaWatch {
  check(): Promise<WorkspaceExcess | null>;
  /**
   * After the run: always one walk, whatever statfs says. Deletions elsewhere on the file system can offset a
   * burst's growth in statfs, and a short run may end before any periodic walk; the sandbox's planted-git check
   * uses this walk too.
   */
  final(): Promise<Measured>;
  intervalMs: number;
}

export interface BudgetInput {
  writablePaths: string[];
  tmpDir?: string;
  sensitivePaths: string[];
  budget: WorkspaceBudget;
  /** A walk of `writablePaths` already made with the same skip (the sandbox set-up's), reused as the baseline. */
  known?: WritableScan;
  now?: () => number;
  /** The area walk (a real walk unless a test counts them). */
  walk?: typeof scanWritableArea;
}

/**
 * Watches a run's writable area against its budget. The baseline is one bounded walk before the run. While it
 * runs, statfs of the file systems involved is the cheap trigger: only when their used inodes or bytes grew by
 * more than what the budget still allows (other processes write there too), or a second has passed, is the
 * area walked again to count what this run really added. After the run one walk counts exactly (and serves
 * the planted-git check too).
 */
export async function budgetWatch(
  input: BudgetInput,
): Promise<{ watch: AreaWatch | null; warnings: string[] }> {
  const { budget } = input;
  const extra =
    input.tmpDir !== undefined && !input.writablePaths.includes(input.tmpDir) ? [input.tmpDir] : [];
  const roots = [...input.writablePaths, ...extra];
  const skip = areaSkip(input.writablePaths, input.sensitivePaths);
  // Without the set-up's walk (no bwrap) the baseline walk overlaps the run's start instead of delaying it:
  // what a script creates before that walk reaches it counts as already there (lenient by that much only).
  const walk = input.walk ?? scanWritableArea;
  const own = input.known ?? walk(input.writablePaths, { skip });
  const usage = sharedUsage;
  // The roots' file systems are looked up once; their statfs readings are shared with the other live runs.
  const devices = await usage.devices(roots);
  const [rest, first] = await Promise.all([
    extra.length > 0 ? walk(extra, { skip }) : null,
    usage.usage(devices, usage.now() - SHARE_WINDOW_MS),
  ]);
  const baseline = Promise.resolve(own).then((scan) =>
    scan.truncated || rest?.truncated
      ? null
      : { seen: scan.seen + (rest?.seen ?? 0), bytes: scan.bytes + (rest?.bytes ?? 0) },
  );
  const unenforced = `the workspace budget (exec.workspace_files, exec.workspace_mb) is not enforced for this run: its writable area has more than ${DEFAULT_MAX_ENTRIES} entries; fix: run scripts with a smaller workspace`;
  if (input.known && (await baseline) === null) return { watch: null, warnings: [unenforced] };
  const now = input.now ?? Date.now;
  let mark = first;
  /** When the last reading this run used began: each check gets a newer one (its own writes since are in it). */
  let seen = first.started;
  let allowFiles = budget.files;
  let allowBytes = budget.bytes;
  let lastWalk = now();
  const measure = async (): Promise<Measured> => {
    const base = await baseline;
    if (base === null) return { excess: null, scan: null, warnings: [unenforced] };
    lastWalk = now();
    // Past the cap the count is over budget anyway; never below the set-up walk's, so git metadata stays complete.
    const maxEntries = Math.max(DEFAULT_MAX_ENTRIES, base.seen + budget.files + 1);
    const scan = await walk(roots, { skip, maxEntries });
    const files = scan.seen - base.seen;
    const bytes = scan.bytes - base.bytes;
    allowFiles = budget.files - files;
    allowBytes = budget.bytes - bytes;
    const excess: WorkspaceExcess | null =
      files > budget.files
        ? { kind: "files", count: files, limit: budget.files }
        : bytes > budget.bytes
          ? { kind: "bytes", count: bytes, limit: budget.bytes }
          : null;
    return { excess, scan, warnings: [] };
  };
  const check = async (): Promise<Measured> => {
    const used = await usage.usage(devices, usage.now() - SHARE_WINDOW_MS, seen);
    seen = used.started;
    const quiet = used.inodes - mark.inodes <= allowFiles && used.bytes - mark.bytes <= allowBytes;
    // Deletions elsewhere on the file system can hide growth from statfs: a walk now and then all the same.
    const due = now() - lastWalk >= (used.inodesCounted ? WALK_INTERVAL_MS : BLIND_WALK_INTERVAL_MS);
    if (quiet && !due) return { excess: null, scan: null, warnings: [] };
    const measured = await measure();
    mark = used;
    return measured;
  };
  return {
    watch: {
      check: async () => (await check()).excess,
      final: measure,
      intervalMs: TRIGGER_INTERVAL_MS,
    },
    warnings: [],
  };
}
