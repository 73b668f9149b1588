// runtime/exec/prepare/workspace-budget.ts: a run's writable-area budget on real files: new entries and grown bytes counted exactly, beyond what was there.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigSchema } from "../../../runtime/config/index.js";
import { budgetWatch, DEFAULT_WORKSPACE_BUDGET } from "../../../runtime/exec/prepare/workspace-budget.js";
import { DEFAULT_MAX_ENTRIES, scanWritableArea } from "../../../runtime/exec/writable-area.js";
import { type TempRoot, tempRoot } from "../../support/workspace.js";

const MIB = 1024 * 1024;
let temp: TempRoot;
let ws: string;
beforeEach(() => {
  temp = tempRoot("skillgate-budget-", { realpath: true });
  ws = temp.path("ws");
  mkdirSync(ws);
});
afterEach(() => temp.cleanup());

function files(dir: string, count: number, prefix = "f"): void {
  mkdirSync(dir, { recursive: true });
  for (let index = 0; index < count; index++) writeFileSync(join(dir, `${prefix}${index}`), "");
}

async function watch(
  budget = { files: 10, bytes: MIB },
  extra: { tmpDir?: string; now?: () => number; walk?: typeof scanWritableArea } = {},
) {
  const walks: Promise<unknown>[] = [];
  const walk: typeof scanWritableArea = (roots, options) => {
    const walked = (extra.walk ?? scanWritableArea)(roots, options);
    walks.push(walked);
    return walked;
  };
  const made = await budgetWatch({ writablePaths: [ws], sensitivePaths: [], budget, ...extra, walk });
  if (made.watch === null) throw new Error(made.warnings.join("; "));
  // The baseline walk overlaps a run's start (what the run makes before the walk reaches it counts as already
  // there, by design): these tests write only once it has ended, or a loaded machine makes their writes baseline.
  await Promise.all(walks);
  return made.watch;
}

describe("budgetWatch", () => {
  it("counts only what the run added: entries already there are the baseline", async () => {
    files(ws, 30, "old");
    const area = await watch();
    files(ws, 11);
    expect((await area.final()).excess).toEqual({ kind: "files", count: 11, limit: 10 });
  });

  it("allows exactly the budget", async () => {
    const area = await watch();
    files(ws, 10);
    expect(await area.check()).toBeNull();
    expect((await area.final()).excess).toBeNull();
  });

  it("counts grown bytes (allocated blocks) against the byte budget", async () => {
    const area = await watch({ files: 100, bytes: MIB });
    writeFileSync(join(ws, "big.bin"), Buffer.alloc(2 * MIB, 1));
    const { excess } = await area.final();
    expect(excess).toMatchObject({ kind: "bytes", limit: MIB });
    expect(excess?.count).toBeGreaterThanOrEqual(2 * MIB);
  });

  it("counts the run's own temp folder with the workspace", async () => {
    const tmpDir = temp.path("run-tmp");
    mkdirSync(tmpDir);
    const area = await watch({ files: 10, bytes: MIB }, { tmpDir });
    files(join(tmpDir, "t"), 6);
    files(ws, 5);
    expect((await area.final()).excess).toEqual({ kind: "files", count: 12, limit: 10 });
  });

  // statfs is the file system's count, so other processes' deletions can offset a small growth: a burst far over
  // what they could offset in between keeps this test about the trigger, not about the machine's other work.
  it("check(): statfs growth beyond what the budget allows triggers a walk at once", async () => {
    const area = await watch({ files: 10, bytes: 1024 * MIB }, { now: () => 0 });
    files(ws, 5_000);
    expect(await area.check()).toEqual({ kind: "files", count: 5_000, limit: 10 });
  });

  it("final() walks and returns the walk (shared with the planted-git check)", async () => {
    const area = await watch();
    mkdirSync(join(ws, "sub", ".git"), { recursive: true });
    const measured = await area.final();
    expect(measured.excess).toBeNull();
    expect(measured.scan?.gitPaths).toEqual([join(ws, "sub", ".git")]);
    expect(measured.warnings).toEqual([]);
  });

  it("between walks, a quiet statfs skips the walk until a second has passed", async () => {
    let clock = 0;
    let walks = 0;
    const counted: typeof scanWritableArea = (roots, options) => {
      walks++;
      return scanWritableArea(roots, options);
    };
    const area = await watch({ files: 1_000_000, bytes: 1024 * MIB }, { now: () => clock, walk: counted });
    expect(walks).toBe(1);
    files(ws, 3);
    expect(await area.check()).toBeNull();
    expect(walks).toBe(1);
    clock = 1_000;
    expect(await area.check()).toBeNull();
    expect(walks).toBe(2);
    expect(area.intervalMs).toBe(100);
  });

  it("final() walks after the run even when statfs is quiet: deletions elsewhere cannot hide a burst", async () => {
    // Files outside the area, on the same file system, removed during the run: statfs sees no net growth.
    const elsewhere = temp.path("elsewhere");
    files(elsewhere, 2_000);
    let walks = 0;
    const counted: typeof scanWritableArea = (roots, options) => {
      walks++;
      return scanWritableArea(roots, options);
    };
    const area = await watch({ files: 10, bytes: MIB }, { now: () => 0, walk: counted });
    files(ws, 15);
    rmSync(elsewhere, { recursive: true });
    const measured = await area.final();
    expect(walks).toBe(2);
    expect(measured.excess).toEqual({ kind: "files", count: 15, limit: 10 });
    expect(measured.scan?.seen).toBe(15);
  });

  it("is not enforced (and says so) when the set-up's walk of the area was cut short", async () => {
    const known = { ...(await scanWritableArea([ws], { skip: () => false })), truncated: true };
    expect(
      await budgetWatch({ writablePaths: [ws], sensitivePaths: [], budget: DEFAULT_WORKSPACE_BUDGET, known }),
    ).toEqual({
      watch: null,
      warnings: [
        `the workspace budget (exec.workspace_files, exec.workspace_mb) is not enforced for this run: its writable area has more than ${DEFAULT_MAX_ENTRIES} entries; fix: run scripts with a smaller workspace`,
      ],
    });
  });

  it("defaults to the config schema's exec.workspace_files and exec.workspace_mb", () => {
    const exec = ConfigSchema.parse({}).exec;
    expect(DEFAULT_WORKSPACE_BUDGET).toEqual({ files: exec.workspace_files, bytes: exec.workspace_mb * MIB });
  });
});
