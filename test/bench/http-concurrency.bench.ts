// 400 RunSkillScript calls fired at once at `skillgate serve --http`: latency p50/p99, workspace-lock wait p99, errors and ledger, run queue vs no queue.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { parallelRunsFor } from "../../runtime/exec/queue.js";
import { BUILT_MAIN, ensureBuilt } from "./built.js";
import { percentile, printTable, type Row, Samples } from "./report.js";
import { builtAt, cpuOf, startServe, stopServe } from "./serve-process.js";
import { PLAIN_ENV, spawnPlain } from "./spawn.js";
import { BENCH_SKILL, type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

// SKILLGATE_BENCH_CALLS / _ROUNDS shrink a run while iterating; SKILLGATE_BENCH_SLOTS="2,4,16" adds queues of those
// sizes to the default one (each its own server, same rounds). docs/performance.md says which knobs its rows used.
const CALLS = Number(process.env.SKILLGATE_BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.SKILLGATE_BENCH_ROUNDS ?? 3);
const EXTRA_SLOTS = (process.env.SKILLGATE_BENCH_SLOTS ?? "")
  .split(",")
  .filter(Boolean)
  .map((text) => {
    const slots = Number(text);
    if (!Number.isInteger(slots) || slots < 1)
      throw new Error(`SKILLGATE_BENCH_SLOTS: bad slot count ${text}`);
    return slots;
  });
/**
 * Another build's checkout (its `dist/` built), e.g. the commit issue 16 was filed on: adds a variant running that
 * build's `serve --http` with its defaults, on a workspace it initialises itself, and a row comparing the default
 * queue's p50 with it. docs/performance.md says how to build one.
 */
const OTHER_BUILD = process.env.SKILLGATE_BENCH_BASELINE_BUILD;
/** A folder: each server writes a V8 CPU profile there (`--cpu-prof`), named by variant and round. */
const PROFILE_DIR = process.env.SKILLGATE_BENCH_PROFILE;
const PROBE = join(import.meta.dirname, "lock-wait-probe.mjs");
const COMMAND = { name: "RunSkillScript", arguments: { commands: [[BENCH_SKILL, "helper.py", "a bb ccc"]] } };

/**
 * "default": exec.max_parallel_runs left unset (the config default); "qN": a queue of N slots; "open": a slot for
 * every call, i.e. no queue (the baseline). Every variant is the same server, workspace shape, helper and client;
 * "build" (SKILLGATE_BENCH_BASELINE_BUILD) is another build's server with the default variant's config.
 */
const variants: Record<string, { slots: number | null; label: string; main?: string }> = {
  default: { slots: null, label: `default ("auto": ${parallelRunsFor("auto")} slots)` },
  ...Object.fromEntries(EXTRA_SLOTS.map((slots) => [`q${slots}`, { slots, label: `${slots} slots` }])),
  open: { slots: CALLS, label: "no queue" },
  ...(OTHER_BUILD === undefined
    ? {}
    : { build: { slots: null, ...builtAt(OTHER_BUILD, "SKILLGATE_BENCH_BASELINE_BUILD") } }),
};
const keys = Object.keys(variants);
const queueKeys = keys.filter((key) => key !== "open" && key !== "build");
const workspaces = Object.fromEntries(
  keys.map((key) => {
    const slots = variants[key]?.slots;
    return [key, makeBenchWorkspace(slots === null || slots === undefined ? {} : { maxParallelRuns: slots })];
  }),
) as Record<string, BenchWorkspace>;
const samples = new Samples();
const errors: Record<string, string[]> = Object.fromEntries(keys.map((key) => [key, []]));
const ledger: Record<string, { ok: boolean; runs: number; detail: string }> = {};
let rounds = 0;

const envOf = (bw: BenchWorkspace, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...PLAIN_ENV,
  SKILLGATE_HOME: bw.home,
  NO_COLOR: "1",
  ...extra,
});

/** The built `skillgate serve --http` (or another build's) with the lock-wait probe preloaded, once it listens. */
function startServer(bw: BenchWorkspace, waitsFile: string, name: string, main = BUILT_MAIN) {
  const profile = PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", join(PROFILE_DIR, name)] : [];
  return startServe({
    main,
    nodeArgs: [...profile, "--import", PROBE],
    args: ["--workspace", bw.ws, "--config", bw.configFile],
    cwd: bw.dir,
    env: envOf(bw, { SKILLGATE_BENCH_LOCK_WAITS: waitsFile }),
  });
}

/** Spearman rank correlation of send order and finish order: 1 = calls finish in the order they were sent. */
function orderCorrelation(finished: readonly number[]): number {
  const n = finished.length;
  const rank = new Array<number>(n);
  finished.forEach((sentIndex, finishRank) => {
    rank[sentIndex] = finishRank;
  });
  const sumSquares = rank.reduce((sum, r, i) => sum + (r - i) ** 2, 0);
  return 1 - (6 * sumSquares) / (n * (n * n - 1));
}

/** One server start, one warm call, then CALLS calls at once; each call timed from its send to its result. */
async function round(key: string): Promise<void> {
  const bw = workspaces[key] as BenchWorkspace;
  const waitsFile = join(bw.dir, `lock-waits-${rounds}.json`);
  samples.add("load1", loadavg()[0] as number);
  const { url, child } = await startServer(bw, waitsFile, `${key}-${rounds}`, variants[key]?.main);
  const client = new Client({ name: "skillgate-bench", version: "0.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const warm = await client.callTool(COMMAND);
    if (warm.isError) throw new Error(`warm-up RunSkillScript failed: ${JSON.stringify(warm.content)}`);
    const before = cpuOf(child.pid as number);
    const finished: number[] = [];
    const started = performance.now();
    const latencies = await Promise.all(
      Array.from({ length: CALLS }, async (_, index) => {
        const sent = performance.now();
        try {
          const result = await client.callTool(COMMAND, undefined, { timeout: 600_000 });
          if (result.isError) errors[key]?.push(JSON.stringify(result.content).slice(0, 300));
        } catch (error) {
          errors[key]?.push(String(error).slice(0, 300));
        }
        finished.push(index);
        return performance.now() - sent;
      }),
    );
    const wall = performance.now() - started;
    const after = cpuOf(child.pid as number);
    samples.add(`${key}.wall`, wall);
    samples.add(`${key}.p50`, percentile(latencies, 50));
    samples.add(`${key}.p99`, percentile(latencies, 99));
    samples.add(`${key}.order`, orderCorrelation(finished));
    samples.add(`${key}.cpuSelf`, ((after.self - before.self) * 1000) / CALLS);
    samples.add(`${key}.cpuChildren`, ((after.children - before.children) * 1000) / CALLS);
  } finally {
    await client.close().catch(() => undefined);
    await stopServe(child);
  }
  const waits = JSON.parse(readFileSync(waitsFile, "utf8")) as {
    acquisitions: number[];
    holds: number[];
    transactions: number[];
    batches: number[];
    slots: number[];
  };
  // The target figure is what each ledger transaction waited (a commit may serve many); acquisitions are shown too.
  const { acquisitions, holds, transactions, batches, slots } = waits;
  samples.add(`${key}.lockP99`, percentile(transactions, 99));
  samples.add(`${key}.lockMax`, Math.max(...transactions));
  samples.add(`${key}.lockCount`, transactions.length);
  samples.add(`${key}.acqP99`, percentile(acquisitions, 99));
  samples.add(`${key}.acqCount`, acquisitions.length);
  samples.add(`${key}.holdP99`, percentile(holds, 99));
  samples.add(`${key}.batchMean`, batches.reduce((sum, n) => sum + n, 0) / Math.max(1, batches.length));
  samples.add(`${key}.slotP50`, percentile(slots, 50));
}

/** `skillgate verify WS` passes and the ledger holds one run receipt per call (warm-ups included). */
async function checkLedger(key: string): Promise<void> {
  const bw = workspaces[key] as BenchWorkspace;
  // Another build may have no `verify` or another ledger: its errors are counted, its ledger is not judged here.
  if (key === "build") return;
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
  // Initialised in process first, so each server start only opens the workspace; another build initialises its own.
  for (const key of keys)
    if (key !== "build") await (await (workspaces[key] as BenchWorkspace).open()).catalog();
}, 600_000);

afterAll(async () => {
  if (rounds > 0) {
    for (const key of keys) await checkLedger(key);
    report();
  }
  for (const bw of Object.values(workspaces)) bw.cleanup();
}, 600_000);

function spread(key: string, digits = 1): string {
  const values = samples.get(key);
  const fmt = (value: number) => value.toFixed(digits);
  return `${fmt(Math.min(...values))}/${fmt(percentile(values, 50))}/${fmt(Math.max(...values))}`;
}

/** The p50 row of variant `key` against variant `against`, from per-round ratios. */
function p50Row(key: string, against: string, baselineName: string): Row {
  const ratios = samples
    .get(`${key}.p50`)
    .map((value, i) => value / (samples.get(`${against}.p50`)[i] as number));
  samples.series.set(`${key}.${against}.ratio`, ratios);
  const ratio = samples.median(`${key}.${against}.ratio`);
  return {
    name: `p50 latency, ${CALLS} calls at once, run queue ${variants[key]?.label}${against === "open" ? "" : `, against ${variants[against]?.label}`}`,
    ours: samples.median(`${key}.p50`),
    baseline: samples.median(`${against}.p50`),
    baselineName: `${baselineName}, same round; per round ${ratios.map((r) => `${r.toFixed(2)}x`).join(", ")}`,
    ratio,
    target: "<= 0.5x (halved)",
    met: ratio <= 0.5,
  };
}

function rowsOf(key: string): Row[] {
  const m = (name: string) => samples.median(name);
  const { label } = variants[key] as { label: string };
  return [
    p50Row(key, "open", `same server, exec.max_parallel_runs: ${CALLS} (a slot per call: no queue)`),
    ...(variants.build === undefined ? [] : [p50Row(key, "build", variants.build.label)]),
    {
      name: `workspace-lock wait p99 per ledger transaction, ${label} (worst round)`,
      ours: Math.max(...samples.get(`${key}.lockP99`)),
      baseline: m("open.lockP99"),
      target: "< 50 ms",
      met: Math.max(...samples.get(`${key}.lockP99`)) < 50,
    },
    {
      name: `calls that failed, ${label}`,
      ours: errors[key]?.length ?? 0,
      baseline: errors.open?.length ?? 0,
      target: "0",
      met: (errors[key]?.length ?? 0) === 0,
      unit: "calls",
    },
    {
      name: `ledger after all rounds (verify + a receipt per call), ${label}`,
      ours: ledger[key]?.runs ?? 0,
      baseline: ledger.open?.runs ?? 0,
      baselineName: `${ledger[key]?.detail}; no queue: ${ledger.open?.detail}`,
      target: "verify ok, all receipts",
      met: ledger[key]?.ok ?? false,
      unit: "calls",
    },
  ];
}

function report(): void {
  const perVariant = keys.map(
    (key) =>
      `${variants[key]?.label}: p50 ${spread(`${key}.p50`, 0)}, p99 ${spread(`${key}.p99`, 0)}, wall ${spread(`${key}.wall`, 0)}, ` +
      `finish-order correlation ${spread(`${key}.order`, 2)}, ` +
      `CPU per call server ${spread(`${key}.cpuSelf`)} + runs ${spread(`${key}.cpuChildren`)}, ` +
      // Another build publishes none of the probe's channels: no slot or lock figures to show.
      (key === "build"
        ? "no run-queue or lock channels"
        : `slot held p50 ${spread(`${key}.slotP50`)}, lock wait p99 ${spread(`${key}.lockP99`)} (worst ${spread(`${key}.lockMax`)}), acquisitions ${spread(`${key}.acqCount`, 0)} (wait p99 ${spread(`${key}.acqP99`)}, held p99 ${spread(`${key}.holdP99`)}), transactions ${spread(`${key}.lockCount`, 0)}, per commit ${spread(`${key}.batchMean`)}`),
  );
  printTable(
    `${CALLS} concurrent RunSkillScript calls over Streamable HTTP (built serve --http, SDK client)`,
    queueKeys.flatMap(rowsOf),
    {
      notes: [
        `${rounds} rounds, the variants' order rotating; each round a fresh server per variant, one warm call, then ${CALLS} calls sent at once over one MCP session. Figures: median over rounds; ratio: median of per-round ratios.`,
        "Per variant, min/median/max over rounds (ms unless said; CPU ms per call; correlation of send and finish order, 1 = FIFO):",
        ...perVariant.map((line) => `  ${line}`),
        `1-minute load average at the start of each variant (min/median/max): ${spread("load1")}.`,
        ...keys
          .filter((key) => (errors[key]?.length ?? 0) > 0)
          .map((key) => `first errors, ${key}: ${errors[key]?.slice(0, 2).join(" | ")}`),
      ],
    },
  );
}

describe(`${CALLS} concurrent RunSkillScript calls over HTTP`, () => {
  bench(
    "one round: every queue variant and no queue (order rotating)",
    async () => {
      const order = keys.map((_, i) => keys[(i + rounds) % keys.length] as string);
      rounds += 1;
      for (const key of order) await round(key);
    },
    { iterations: ROUNDS, warmupIterations: 0, time: 0 },
  );
});
