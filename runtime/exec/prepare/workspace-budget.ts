// The per-run budget of the writable area (new entries, grown bytes): a baseline walk, a statfs trigger while the run lives, a confirming walk.
import { lstat, statfs } from "node:fs/promises";
import type { WorkspaceExcess } from "../outcome.js";
import type { AreaWatch } from "../supervise/supervise.js";
import type { WorkspaceBudget } from "../types.js";
import { areaSkip, DEFAULT_MAX_ENTRIES, scanWritableArea, type WritableScan } from "../writable-area.js";

/** exec.workspace_files / exec.workspace_mb defaults (config/schema.ts has the same), for runs given no budget. */
export const DEFAULT_WORKSPACE_BUDGET: WorkspaceBudget = { files: 10_000, bytes: 256 * 1024 * 1024 };

/** statfs every 100 ms costs one syscall per file system; a flood of ~50k files/s is caught within ~5k files. */
const TRIGGER_INTERVAL_MS = 100;
/** Where statfs counts no inodes (btrfs, zfs report 0), the walk itself is the check, at most this often. */
const WALK_INTERVAL_MS = 500;

interface FsUsage {
  inodes: number;
  bytes: number;
  /** statfs counts inodes on every file system involved. */
  inodesCounted: boolean;
}

/** Used inodes and bytes of the file systems holding `roots` (each file system once). */
async function fsUsage(roots: readonly string[]): Promise<FsUsage> {
  const devices = new Map<number, string>();
  for (const root of roots) {
    const info = await lstat(root).catch(() => null);
    if (info && !devices.has(info.dev)) devices.set(info.dev, root);
  }
  const usage: FsUsage = { inodes: 0, bytes: 0, inodesCounted: true };
  for (const root of devices.values()) {
    const fs = await statfs(root).catch(() => null);
    if (fs === null) {
      usage.inodesCounted = false;
      continue;
    }
    if (fs.files === 0) usage.inodesCounted = false;
    usage.inodes += fs.files - fs.ffree;
    usage.bytes += (fs.blocks - fs.bfree) * fs.bsize;
  }
  return usage;
}

export interface BudgetInput {
  writablePaths: string[];
  tmpDir?: string;
  sensitivePaths: string[];
  budget: WorkspaceBudget;
  /** A walk of `writablePaths` already made with the same skip (the sandbox set-up's), reused as the baseline. */
  known?: WritableScan;
  now?: () => number;
}

/**
 * Watches a run's writable area against its budget. The baseline is one bounded walk before the run. While it
 * runs, statfs of the file systems involved is the cheap trigger: only when their used inodes or bytes grew by
 * more than what the budget still allows (other processes write there too) is the area walked again to count
 * what this run really added; a count within budget becomes the new mark.
 */
export async function budgetWatch(
  input: BudgetInput,
): Promise<{ watch: AreaWatch | null; warnings: string[] }> {
  const { budget } = input;
  const extra =
    input.tmpDir !== undefined && !input.writablePaths.includes(input.tmpDir) ? [input.tmpDir] : [];
  const roots = [...input.writablePaths, ...extra];
  const skip = areaSkip(input.writablePaths, input.sensitivePaths);
  const [own, rest, first] = await Promise.all([
    input.known ?? scanWritableArea(input.writablePaths, { skip }),
    extra.length > 0 ? scanWritableArea(extra, { skip }) : null,
    fsUsage(roots),
  ]);
  if (own.truncated || rest?.truncated) {
    return {
      watch: null,
      warnings: [
        `the workspace budget (exec.workspace_files, exec.workspace_mb) is not enforced for this run: its writable area has more than ${DEFAULT_MAX_ENTRIES} entries; fix: run scripts with a smaller workspace`,
      ],
    };
  }
  const base = { seen: own.seen + (rest?.seen ?? 0), bytes: own.bytes + (rest?.bytes ?? 0) };
  const now = input.now ?? Date.now;
  let mark = first;
  let allowFiles = budget.files;
  let allowBytes = budget.bytes;
  let lastWalk = now();
  const check = async (): Promise<WorkspaceExcess | null> => {
    const usage = await fsUsage(roots);
    const quiet = usage.inodes - mark.inodes <= allowFiles && usage.bytes - mark.bytes <= allowBytes;
    if (quiet && (usage.inodesCounted || now() - lastWalk < WALK_INTERVAL_MS)) return null;
    lastWalk = now();
    const scan = await scanWritableArea(roots, { skip, maxEntries: base.seen + budget.files + 1 });
    const files = scan.seen - base.seen;
    const bytes = scan.bytes - base.bytes;
    if (files > budget.files) return { kind: "files", count: files, limit: budget.files };
    if (bytes > budget.bytes) return { kind: "bytes", count: bytes, limit: budget.bytes };
    mark = usage;
    allowFiles = budget.files - files;
    allowBytes = budget.bytes - bytes;
    return null;
  };
  return { watch: { check, intervalMs: TRIGGER_INTERVAL_MS }, warnings: [] };
}
