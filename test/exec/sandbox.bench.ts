// Sandbox overhead per run: plain spawn vs runScript level 1 (limits) vs level 2 (bubblewrap + limits), same script.
import { spawn } from "node:child_process";
import { afterAll, bench, describe } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import type { RunRequest } from "../../runtime/exec/types.js";
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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
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

function printSummary(): void {
  const plain = median(timings.plain ?? []);
  const level1 = median(timings.level1 ?? []);
  const level2 = median(timings.level2 ?? []);
  const line = (name: string, value: number) =>
    `${name}: median ${value.toFixed(1)} ms (${(value / plain).toFixed(2)}x plain, +${(value - plain).toFixed(1)} ms)`;
  console.log(
    [
      "sandbox overhead per run (bash script printing one line):",
      `plain spawn: median ${plain.toFixed(1)} ms`,
      line("level 1", level1),
      line("level 2", level2),
      `bubblewrap alone (level 2 - level 1): +${(level2 - level1).toFixed(1)} ms`,
    ].join("\n"),
  );
}

afterAll(() => {
  printSummary();
  h.cleanup();
});
