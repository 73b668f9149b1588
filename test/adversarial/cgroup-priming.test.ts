// Cgroup move priming (native/cgroup-prime.c) under parallel RunSkillScript calls: every level-1 run is born in its own run cgroup.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeModule } from "../../runtime/contracts/index.js";
import { type Bed, makeBed, record } from "./tool-bed.js";

// Level 1 forks from our main thread moved into the run's cgroup (bornInside): the hazard session 8's priming had,
// whose no-op move of that same thread could land in between and leave a child born outside its cgroup.
const WHERE = `import os
pids = [line.split(":")[2] for line in open("/proc/self/cgroup").read().splitlines() if ":pids:" in line]
print(os.environ["SKILLGATE_RUN_ID"], pids[0] if pids else "none")
`;
const ROOT = process.getuid?.() === 0;
const CALLS = 24;

let bed: Bed;
beforeAll(async () => {
  bed = await makeBed({
    skills: [{ name: "where", scripts: { "where.py": WHERE } }],
    exec: { sandbox_level: 1, max_parallel_runs: 8 },
  });
}, 120_000);
afterAll(() => bed?.cleanup());

describe("parallel level-1 runs while new run cgroups prime moves", () => {
  it(`${CALLS} calls at once: each script runs in the pids cgroup of its own run (root), or in none of ours`, async () => {
    if (ROOT && nativeModule("cgroup-prime") === null)
      throw new Error("dist/native/cgroup-prime.node is not built (npm run build with a C compiler)");
    const results = await Promise.all(Array.from({ length: CALLS }, () => bed.run("where", "where.py")));
    const seen = results.map((result) => {
      const run = record(result);
      expect(run.status, run.output).toBe("ok");
      const [runId, cgroup] = run.output.trim().split(" ");
      return { runId, cgroup };
    });
    for (const { runId, cgroup } of seen) {
      if (ROOT) expect(cgroup).toBe(`/skillgate/${runId}`);
      else expect(cgroup).not.toMatch(/\/sg-/); // no cgroups without root: the run stays where skillgate is
    }
    expect(new Set(seen.map((entry) => entry.runId)).size).toBe(CALLS);
  }, 180_000);
});
