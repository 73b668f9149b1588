// `.ts` helpers: RunSkillScript of helper.ts (tsx mapping → esbuild fast path) vs helper.mjs with node vs real tsx; sandboxed and plain.
import { join } from "node:path";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { compileTsHelper, tsCacheDir } from "../../runtime/exec/ts-fast-path.js";
import { callTool } from "../../runtime/tools/index.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { printTable, type Row, Samples } from "./report.js";
import { spawnPlain } from "./spawn.js";
import { BENCH_SKILL, type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

const ITERATIONS = 25;
const ARGS = "--src dut --limit 3";
const bw: BenchWorkspace = makeBenchWorkspace({ sandboxLevel: 2 });
const samples = new Samples();
let session: OpenedSession;
let compiledEntry = "";
const tsxBin = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "tsx");

async function runTool(script: string, exact = false): Promise<string> {
  if (exact) process.env.SKILLGATE_EXACT_RUNNER = "1";
  try {
    const result = await callTool(session, "RunSkillScript", { commands: [[BENCH_SKILL, script, ARGS]] });
    if (result.isError) throw new Error(`RunSkillScript ${script} failed: ${result.text}`);
    const [record] = result.structured.commands as { argv: string[] }[];
    return record?.argv[0] ?? "";
  } finally {
    delete process.env.SKILLGATE_EXACT_RUNNER;
  }
}

beforeAll(async () => {
  session = await bw.open();
  // Warm every path once (esbuild compile, bwrap probe, page cache) and check each variant runs what it claims.
  const fast = await runTool("helper.ts");
  if (fast !== process.execPath) throw new Error(`fast path not taken: argv[0] = ${fast}`);
  const exact = await runTool("helper.ts", true);
  if (!exact.includes("tsx")) throw new Error(`SKILLGATE_EXACT_RUNNER=1 did not run tsx: argv[0] = ${exact}`);
  await runTool("helper.mjs");
  const compiled = await compileTsHelper(bw.scriptPath("helper.ts"), tsCacheDir(bw.home));
  if (!compiled) throw new Error("helper.ts was not compiled by the fast path");
  compiledEntry = compiled.entry;
  for (const argv of [
    [process.execPath, bw.scriptPath("helper.mjs")],
    [process.execPath, compiledEntry],
    [tsxBin, bw.scriptPath("helper.ts")],
  ]) {
    await spawnPlain([...argv, ...ARGS.split(" ")], bw.ws);
  }
}, 120_000);

afterAll(() => {
  bw.cleanup();
  if (samples.get("tool.ts").length === 0) return; // set-up failed: vitest reports why
  const m = (key: string) => samples.median(key);
  const rows: Row[] = [
    {
      name: "sandboxed: RunSkillScript helper.ts (fast path)",
      ours: m("tool.ts"),
      baseline: m("tool.mjs"),
      baselineName: "RunSkillScript helper.mjs (node), same sandbox level 2",
      target: "<= 1.2x",
      met: m("tool.ts") / m("tool.mjs") <= 1.2,
    },
    {
      name: "sandboxed: RunSkillScript helper.ts, SKILLGATE_EXACT_RUNNER=1 (tsx)",
      ours: m("tool.tsx"),
      baseline: m("tool.mjs"),
      baselineName: "RunSkillScript helper.mjs (node), same sandbox level 2",
      target: "",
      met: null,
    },
    {
      name: "plain: node <fast-path cache entry>",
      ours: m("plain.compiled"),
      baseline: m("plain.mjs"),
      baselineName: "plain spawn `node helper.mjs`",
      target: "<= 1.2x",
      met: m("plain.compiled") / m("plain.mjs") <= 1.2,
    },
    {
      name: "plain: tsx helper.ts",
      ours: m("plain.tsx"),
      baseline: m("plain.mjs"),
      baselineName: "plain spawn `node helper.mjs`",
      target: "",
      met: null,
    },
    {
      name: "RunSkillScript helper.mjs vs plain node (tool + sandbox cost)",
      ours: m("tool.mjs"),
      baseline: m("plain.mjs"),
      baselineName: "plain spawn `node helper.mjs`",
      target: "",
      met: null,
    },
  ];
  printTable(".ts helpers: RunSkillScript through callTool, sandbox level 2", rows, {
    notes: [
      `${ITERATIONS} rounds, variants interleaved in each round; medians of performance.now() around each call.`,
      "fast path: tsx mapping -> esbuild-compiled once, cached by content hash in $SKILLGATE_HOME/cache/ts, run with node.",
      `tool overhead on top of the plain run: ${(m("tool.mjs") - m("plain.mjs")).toFixed(1)} ms (callTool, bwrap, limits, ledger).`,
    ],
  });
});

describe(".ts helpers", () => {
  bench(
    "one round: RunSkillScript .ts/.mjs/exact tsx + plain node/compiled/tsx",
    async () => {
      await samples.timeAsync("tool.ts", () => runTool("helper.ts"));
      await samples.timeAsync("tool.mjs", () => runTool("helper.mjs"));
      await samples.timeAsync("tool.tsx", () => runTool("helper.ts", true));
      const args = ARGS.split(" ");
      await samples.timeAsync("plain.mjs", () =>
        spawnPlain([process.execPath, bw.scriptPath("helper.mjs"), ...args], bw.ws),
      );
      await samples.timeAsync("plain.compiled", () =>
        spawnPlain([process.execPath, compiledEntry, ...args], bw.ws),
      );
      await samples.timeAsync("plain.tsx", () =>
        spawnPlain([tsxBin, bw.scriptPath("helper.ts"), ...args], bw.ws),
      );
    },
    { iterations: ITERATIONS, warmupIterations: 0, time: 0 },
  );
});
