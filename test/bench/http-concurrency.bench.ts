// 400 RunSkillScript calls fired at once at `skillgate serve --http`: latency p50/p99, workspace-lock wait p99, errors and ledger, run queue vs no queue.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "./built.js";
import { percentile, printTable, type Row, Samples } from "./report.js";
import { PLAIN_ENV, spawnPlain } from "./spawn.js";
import { BENCH_SKILL, type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

// SKILLGATE_BENCH_CALLS / _ROUNDS shrink a run while iterating; the figures in docs/performance.md use the defaults.
const CALLS = Number(process.env.SKILLGATE_BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.SKILLGATE_BENCH_ROUNDS ?? 3);
const PROBE = join(import.meta.dirname, "lock-wait-probe.mjs");
const COMMAND = { name: "RunSkillScript", arguments: { commands: [[BENCH_SKILL, "helper.py", "a bb ccc"]] } };

type Key = "queue" | "open";
/** queue: the default exec.max_parallel_runs ("cores"); open: a slot for every call, i.e. no queue (the baseline). */
const workspaces: Record<Key, BenchWorkspace> = {
  queue: makeBenchWorkspace({ maxParallelRuns: "cores" }),
  open: makeBenchWorkspace({ maxParallelRuns: CALLS }),
};
const samples = new Samples();
const errors: Record<Key, string[]> = { queue: [], open: [] };
const ledger: Record<Key, { ok: boolean; runs: number; detail: string }> = {
  queue: { ok: false, runs: 0, detail: "not checked" },
  open: { ok: false, runs: 0, detail: "not checked" },
};
let rounds = 0;

const envOf = (bw: BenchWorkspace, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...PLAIN_ENV,
  SKILLGATE_HOME: bw.home,
  NO_COLOR: "1",
  ...extra,
});

/** The built `skillgate serve --http 127.0.0.1:0 --json` with the lock-wait probe preloaded; resolves once it listens. */
async function startServer(
  bw: BenchWorkspace,
  waitsFile: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      PROBE,
      BUILT_MAIN,
      "serve",
      "--http",
      "127.0.0.1:0",
      "--json",
      "--workspace",
      bw.ws,
      "--config",
      bw.configFile,
    ],
    {
      cwd: bw.dir,
      env: envOf(bw, { SKILLGATE_BENCH_LOCK_WAITS: waitsFile }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  // One log line per call: drained so the pipe never fills; the tail is kept for a failure message.
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n").find((text) => text.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`serve --http exited ${code} before listening: ${log}`)));
  });
  return { url, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** One server start, one warm call, then CALLS calls at once; each call timed from its send to its result. */
async function round(key: Key): Promise<void> {
  const bw = workspaces[key];
  const waitsFile = join(bw.dir, `lock-waits-${rounds}.json`);
  samples.add("load1", loadavg()[0] as number);
  const { url, child } = await startServer(bw, waitsFile);
  const client = new Client({ name: "skillgate-bench", version: "0.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const warm = await client.callTool(COMMAND);
    if (warm.isError) throw new Error(`warm-up RunSkillScript failed: ${JSON.stringify(warm.content)}`);
    const started = performance.now();
    const latencies = await Promise.all(
      Array.from({ length: CALLS }, async () => {
        const sent = performance.now();
        try {
          const result = await client.callTool(COMMAND, undefined, { timeout: 600_000 });
          if (result.isError) errors[key].push(JSON.stringify(result.content).slice(0, 300));
        } catch (error) {
          errors[key].push(String(error).slice(0, 300));
        }
        return performance.now() - sent;
      }),
    );
    samples.add(`${key}.wall`, performance.now() - started);
    samples.add(`${key}.p50`, percentile(latencies, 50));
    samples.add(`${key}.p99`, percentile(latencies, 99));
  } finally {
    await client.close().catch(() => undefined);
    await stopServer(child);
  }
  const waits = JSON.parse(readFileSync(waitsFile, "utf8")) as {
    acquisitions: number[];
    transactions: number[];
    batches: number[];
  };
  // The target figure is what each ledger transaction waited (a commit may serve many); acquisitions are shown too.
  const { acquisitions, transactions, batches } = waits;
  samples.add(`${key}.lockP99`, percentile(transactions, 99));
  samples.add(`${key}.lockMax`, Math.max(...transactions));
  samples.add(`${key}.lockCount`, transactions.length);
  samples.add(`${key}.acqP99`, percentile(acquisitions, 99));
  samples.add(`${key}.acqCount`, acquisitions.length);
  samples.add(`${key}.batchMean`, batches.reduce((sum, n) => sum + n, 0) / Math.max(1, batches.length));
}

/** `skillgate verify WS` passes and the ledger holds one run receipt per call (warm-ups included). */
async function checkLedger(key: Key): Promise<void> {
  const bw = workspaces[key];
  const output = await spawnPlain(
    [process.execPath, BUILT_MAIN, "verify", bw.ws, "--config", bw.configFile, "--json"],
    bw.dir,
    envOf(bw),
  ).catch((error: Error) => error.message);
  const ledgerFile = join(bw.ws, ".ucagent", "skillgate", "ledger.jsonl");
  const runs = readFileSync(ledgerFile, "utf8")
    .split("\n")
    .filter((line) => line.includes('"kind":"run"')).length;
  let ok = false;
  try {
    ok = (JSON.parse(output) as { ok: boolean }).ok === true;
  } catch {
    ok = false;
  }
  const expected = rounds * (CALLS + 1);
  ledger[key] = {
    ok: ok && runs === expected,
    runs,
    detail: `verify ${ok ? "ok" : `FAILED: ${output.slice(0, 200)}`}, ${runs}/${expected} run receipts`,
  };
}

beforeAll(async () => {
  ensureBuilt();
  // Initialised in process first, so each server start only opens the workspace.
  for (const bw of Object.values(workspaces)) await (await bw.open()).catalog();
}, 600_000);

afterAll(async () => {
  if (rounds > 0) {
    await checkLedger("queue");
    await checkLedger("open");
    report();
  }
  for (const bw of Object.values(workspaces)) bw.cleanup();
}, 600_000);

function spread(key: string): string {
  const values = samples.get(key);
  const fmt = (value: number) => value.toFixed(1);
  return `${fmt(Math.min(...values))}/${fmt(percentile(values, 50))}/${fmt(Math.max(...values))}`;
}

function report(): void {
  const m = (key: string) => samples.median(key);
  const ratios = samples.get("queue.p50").map((value, i) => value / (samples.get("open.p50")[i] as number));
  samples.series.set("ratio.p50", ratios);
  const rows: Row[] = [
    {
      name: `p50 latency, ${CALLS} RunSkillScript calls at once, run queue (${availableParallelism()} slots = cores)`,
      ours: m("queue.p50"),
      baseline: m("open.p50"),
      baselineName: `same server, exec.max_parallel_runs: ${CALLS} (a slot per call: no queue), same round`,
      ratio: samples.median("ratio.p50"),
      target: "<= 0.5x (halved)",
      met: samples.median("ratio.p50") <= 0.5,
    },
    { name: "p99 latency, same calls", ours: m("queue.p99"), baseline: m("open.p99"), target: "", met: null },
    {
      name: "workspace-lock wait p99 (every ledger transaction in the server, call to lock held)",
      ours: m("queue.lockP99"),
      baseline: m("open.lockP99"),
      baselineName: "same, no queue",
      target: "< 50 ms",
      met: Math.max(...samples.get("queue.lockP99")) < 50,
    },
    {
      name: "calls that failed (isError or transport error)",
      ours: errors.queue.length,
      baseline: errors.open.length,
      target: "0",
      met: errors.queue.length === 0,
      unit: "calls",
    },
    {
      name: "ledger after all rounds: skillgate verify + one receipt per call",
      ours: ledger.queue.runs,
      baseline: ledger.open.runs,
      baselineName: `queue: ${ledger.queue.detail}; no queue: ${ledger.open.detail}`,
      target: "verify ok, all receipts",
      met: ledger.queue.ok,
      unit: "calls",
    },
  ];
  printTable(
    `${CALLS} concurrent RunSkillScript calls over Streamable HTTP (built serve --http, SDK client)`,
    rows,
    {
      notes: [
        `${rounds} rounds, variants alternating; each round a fresh server, one warm call, then ${CALLS} calls sent at once over one MCP session. Figures: median over rounds; ratio: median of per-round ratios.`,
        `Spread over rounds (min/median/max, ms): p50 queue ${spread("queue.p50")}, no queue ${spread("open.p50")}; p99 queue ${spread("queue.p99")}, no queue ${spread("open.p99")}.`,
        `p50 ratio per round: ${ratios.map((r) => `${r.toFixed(2)}x`).join(", ")}. Wall time of the ${CALLS} calls: queue ${spread("queue.wall")}, no queue ${spread("open.wall")}.`,
        `Lock wait p99 per transaction (min/median/max over rounds, ms): queue ${spread("queue.lockP99")}, no queue ${spread("open.lockP99")}; worst single wait: queue ${spread("queue.lockMax")}, no queue ${spread("open.lockMax")}; transactions per round ${m("queue.lockCount")}.`,
        `Lock acquisitions per round: queue ${spread("queue.acqCount")}, no queue ${spread("open.acqCount")}; their wait p99: queue ${spread("queue.acqP99")}, no queue ${spread("open.acqP99")}; mean transactions per commit: queue ${spread("queue.batchMean")}, no queue ${spread("open.batchMean")}.`,
        `1-minute load average at the start of each variant (min/median/max): ${spread("load1")}.`,
        ...(errors.queue.length + errors.open.length > 0
          ? [`first errors: ${[...errors.queue.slice(0, 2), ...errors.open.slice(0, 2)].join(" | ")}`]
          : []),
      ],
    },
  );
}

describe(`${CALLS} concurrent RunSkillScript calls over HTTP`, () => {
  bench(
    "one round: queue and no queue (order alternating)",
    async () => {
      const order: Key[] = rounds % 2 === 0 ? ["queue", "open"] : ["open", "queue"];
      rounds += 1;
      for (const key of order) await round(key);
    },
    { iterations: ROUNDS, warmupIterations: 0, time: 0 },
  );
});
