// Sandbox overhead per run: plain spawn vs runScript level 1 (limits) vs level 2 (bubblewrap + limits), same script.
import { spawn } from "node:child_process";
import { afterAll, bench, describe } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import type { RunRequest } from "../../runtime/exec/types.js";
import { median, printTable } from "../bench/report.js";
import { type Harness, makeHarness } from "./harness.js";

const h: Harness = makeHarness("skillgate-bench-");
h.addScript("noop.sh", "echo ok\n");
const base: RunRequest = await h.request("noop.sh");
// vitest may load a bench file more than once (collection, then run): clean up whichever copy exits.
process.once("exit", () => h.cleanup());
const timings: Record<string, number[]> = { plain: [], level1: [], level2: [] };

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  timings[label]?.push(performance.now() - started);
}

function plainSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(base.runner, [base.scriptPath], { cwd: base.cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve());
  });
}

describe("script run overhead", () => {
  bench("plain spawn (no limits, no sandbox)", () => timed("plain", plainSpawn), { iterations: 30, time: 0 });
  bench(
    "runScript level 1 (prlimit + pids cgroup)",
    () => timed("level1", () => runScript({ ...base, sandboxLevel: 1 })),
    {
      iterations: 30,
      time: 0,
    },
  );
  bench(
    "runScript level 2 (bubblewrap + limits)",
    () => timed("level2", () => runScript({ ...base, sandboxLevel: 2 })),
    {
      iterations: 30,
      time: 0,
    },
  );
});

afterAll(() => {
  h.cleanup();
  const plain = median(timings.plain ?? []);
  if (Number.isNaN(plain)) return; // set-up failed: vitest reports why
  const level1 = median(timings.level1 ?? []);
  const level2 = median(timings.level2 ?? []);
  printTable("sandbox overhead per run: bash script printing one line (runScript, no tool layer)", [
    {
      name: "runScript level 1 (prlimit + pids cgroup)",
      ours: level1,
      baseline: plain,
      baselineName: "plain spawn of the same script (no limits, no sandbox)",
      target: "",
      met: null,
    },
    { name: "runScript level 2 (bubblewrap + limits)", ours: level2, baseline: plain, target: "", met: null },
    {
      name: "bubblewrap alone (level 2 vs level 1)",
      ours: level2,
      baseline: level1,
      baselineName: "runScript level 1",
      target: "",
      met: null,
    },
  ]);
});
