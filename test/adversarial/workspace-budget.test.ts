// Issue 11 through the tools: the per-run workspace budget (exec.workspace_files / workspace_mb) stops inode and byte floods.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { survivors } from "../support/host-probes.js";
import { type Bed, makeBed, record } from "./tool-bed.js";

const FILES = 200;
const MIB = 4;

/** Empty files in a loop, forever: only the budget can stop it before the time limit. */
const FLOOD_PY = `import os, sys
d = os.environ["TMPDIR"] if sys.argv[1] == "TMPDIR" else sys.argv[1]
d = os.path.join(d, "flood")
os.makedirs(d, exist_ok=True)
print(d, flush=True)
i = 0
while True:
    open(os.path.join(d, "f%d" % i), "w").close()
    i += 1
`;
/**
 * One file growing by 1 MiB a write, forever. One file, so only the byte budget can stop it: with a file per MiB a
 * fast disk wrote past the file budget too between two checks, and the file budget is the one reported first.
 */
const FILL_PY = `import os, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
block = b"x" * (1 << 20)
with open(os.path.join(d, "big"), "wb") as f:
    while True:
        f.write(block)
        f.flush()
`;
/** N files per round (removed again at the end of each round when asked), then a clean exit. */
const BURST_PY = `import os, sys
d, n = sys.argv[1], int(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
os.makedirs(d, exist_ok=True)
for r in range(rounds):
    for i in range(n):
        open(os.path.join(d, "b%d" % i), "w").close()
    if rounds > 1:
        for i in range(n):
            os.remove(os.path.join(d, "b%d" % i))
print("made", n * rounds)
`;

/** N files in the area, then every file of a folder outside it removed: statfs sees no growth (level 1 reaches it). */
// Removes first: free inodes then only rise during the run, so no statfs-gated check mid-run can see the burst
// (had it made the files first, a loaded machine's check between the two steps stopped it before it hid anything).
const HIDE_PY = `import os, sys
d, n, elsewhere = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for name in os.listdir(elsewhere):
    os.remove(os.path.join(elsewhere, name))
os.makedirs(d, exist_ok=True)
for i in range(n):
    open(os.path.join(d, "h%d" % i), "w").close()
print("made", n)
`;

/** Flood folders outside the workspace (the run temp folder), as the script printed them. */
const floods: string[] = [];

const SCRIPTS = { "flood.py": FLOOD_PY, "fill.py": FILL_PY, "burst.py": BURST_PY, "hide.py": HIDE_PY };

function filesMessage(script: string, count: number): string {
  return `SCRIPT_WORKSPACE_LIMIT: script '${script}' created ${count} new files and folders in its writable area (workspace and run temp folder), over the budget of ${FILES} per run, and was killed with its process tree; what it wrote stays; fix: write fewer files (an archive, or one file per result), or raise exec.workspace_files`;
}

/** The count the outcome reports (it depends on how far the flood got before it was stopped). */
function reportedCount(message: string | undefined): number {
  return Number(/ (?:created|by) (\d+) /.exec(message ?? "")?.[1] ?? Number.NaN);
}

async function expectNoSurvivor(result: Awaited<ReturnType<Bed["run"]>>): Promise<void> {
  const runId = (result.structured.commands as Array<{ run_id?: string }>)[0]?.run_id;
  expect(runId).toMatch(/^sg-/);
  expect(await survivors(runId as string)).toEqual([]);
}

describe.each([2, 1] as const)("workspace budget at sandbox level %i", (level) => {
  let bed: Bed;
  beforeAll(async () => {
    bed = await makeBed({
      skills: [{ name: "flood", scripts: SCRIPTS }],
      // A time limit far beyond what the budget needs on a busy machine: a flood must end by the budget.
      exec: { sandbox_level: level, workspace_files: FILES, workspace_mb: MIB, timeout_seconds: 60 },
    });
  });
  afterAll(() => bed.cleanup());
  // What a stopped flood wrote stays; removed here so every case starts from a small workspace.
  afterEach(() => {
    rmSync(join(bed.ws, "out"), { recursive: true, force: true });
    for (const dir of floods.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("stops an inode flood in the workspace with SCRIPT_WORKSPACE_LIMIT, naming the count and the key", async () => {
    const target = join(bed.ws, "out", "w");
    mkdirSync(join(target, "flood"), { recursive: true });
    const result = await bed.run("flood", "flood.py", target);
    expect(result).toMatchObject({ isError: true, code: "SCRIPT_WORKSPACE_LIMIT" });
    const run = record(result);
    expect(run.status).toBe("workspace_limit");
    const count = reportedCount(run.message);
    expect(count).toBeGreaterThan(FILES);
    expect(run.message).toBe(filesMessage("flood.py", count));
    // Only files are new here (the folder existed); what is on disk is at least what was counted.
    expect(readdirSync(join(target, "flood")).length).toBeGreaterThanOrEqual(count);
    expect(result.text).toContain(
      `Command 1 failed (workspace_limit): script 'flood.py' created ${count} new files and folders`,
    );
    await expectNoSurvivor(result);
  });

  it("stops an inode flood in the run's host-visible TMPDIR too", async () => {
    const result = await bed.run("flood", "flood.py", "TMPDIR");
    const run = record(result);
    floods.push(run.output.split("\n")[0] as string);
    expect(result.code).toBe("SCRIPT_WORKSPACE_LIMIT");
    expect(run.status).toBe("workspace_limit");
    expect(run.message).toBe(filesMessage("flood.py", reportedCount(run.message)));
    await expectNoSurvivor(result);
  });

  it("stops a byte flood at exec.workspace_mb", async () => {
    const result = await bed.run("flood", "fill.py", join(bed.ws, "out", "fill"));
    expect(result.code).toBe("SCRIPT_WORKSPACE_LIMIT");
    const run = record(result);
    expect(run.status).toBe("workspace_limit");
    const mib = reportedCount(run.message);
    expect(mib).toBeGreaterThan(MIB);
    expect(run.message).toBe(
      `SCRIPT_WORKSPACE_LIMIT: script 'fill.py' grew its writable area (workspace and run temp folder) by ${mib} MiB, over the budget of ${MIB} MiB per run, and was killed with its process tree; what it wrote stays; fix: write less, or raise exec.workspace_mb`,
    );
    await expectNoSurvivor(result);
  });

  it("catches a burst that ends before a check would see it, after the run", async () => {
    const burst = join(bed.ws, "out", "burst");
    mkdirSync(burst, { recursive: true });
    const result = await bed.run("flood", "burst.py", `${burst} ${FILES + 100}`);
    const run = record(result);
    expect(run.status).toBe("workspace_limit");
    // Counted during the run when a check fell inside the burst, else after it: FILES + 100 at most.
    const count = reportedCount(run.message);
    expect(count).toBeGreaterThan(FILES);
    expect(count).toBeLessThanOrEqual(FILES + 100);
    expect(run.message).toBe(filesMessage("burst.py", count));
  });

  // Only level 1 reaches files outside its area (level 2 sees none on the host), so only there can it hide a burst.
  if (level === 1)
    it("catches a burst hidden from statfs by removing files outside the area during the run", async () => {
      const elsewhere = join(bed.ws, "..", "elsewhere");
      mkdirSync(elsewhere, { recursive: true });
      for (let i = 0; i < FILES * 10; i++) writeFileSync(join(elsewhere, `e${i}`), "");
      const result = await bed.run(
        "flood",
        "hide.py",
        `${join(bed.ws, "out", "hide")} ${FILES + 50} ${elsewhere}`,
      );
      expect(readdirSync(elsewhere)).toEqual([]);
      const run = record(result);
      expect(run.status).toBe("workspace_limit");
      // Its files, and the folders out/ and out/hide/ it made for them.
      expect(run.message).toBe(filesMessage("hide.py", FILES + 52));
    });

  it("lets a run within budget pass; files that were there before and files it removes do not count", async () => {
    const before = join(bed.ws, "out", "before");
    mkdirSync(before, { recursive: true });
    for (let i = 0; i < FILES * 3; i++) writeFileSync(join(before, `old${i}`), "");
    const within = await bed.run("flood", "burst.py", `${join(bed.ws, "out", "within")} ${FILES - 10}`);
    expect(record(within).status, within.text).toBe("ok");
    const churn = await bed.run("flood", "burst.py", `${join(bed.ws, "out", "churn")} ${FILES / 2} 8`);
    expect(record(churn).status, churn.text).toBe("ok");
  });
});
