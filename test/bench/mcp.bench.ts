// MCP over stdio with the real SDK client: ListSkill round trips (p50, p99) vs a JSON-RPC ping, and the server's RSS after 1,000 and 10,000 calls.
import { execFile, execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { percentile, printTable, Samples } from "./report.js";
import { type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

const REPO = join(import.meta.dirname, "..", "..");
const MAIN = join(REPO, "dist", "runtime", "cli", "main.js");
const TIMED_CALLS = 1_000;
const TOTAL_CALLS = 10_000;
const bw: BenchWorkspace = makeBenchWorkspace({ extraSkills: 50 });
const samples = new Samples();
const rssAt = new Map<number, number>();
let client: Client;
let transport: StdioClientTransport;
let calls = 0;
let heapAfterGc: Record<number, number> = {};

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** dist/ must match the sources: build when it is missing or older than runtime/. */
function ensureBuilt(): void {
  const built = statSync(MAIN, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= newestMtime(join(REPO, "runtime"))) return;
  execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
}

function serverRssMiB(): number {
  const pid = transport.pid;
  if (pid === null) throw new Error("server process is not running");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kib / 1024;
}

async function listSkill(): Promise<void> {
  const result = await client.callTool({ name: "ListSkill", arguments: {} });
  if (result.isError) throw new Error(`ListSkill failed: ${JSON.stringify(result.content)}`);
  calls += 1;
}

beforeAll(async () => {
  ensureBuilt();
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "serve", "--workspace", bw.ws, "--config", bw.configFile],
    env: bw.env as Record<string, string>,
    stderr: "pipe",
  });
  // The server logs one line per call on stderr: drain it so the pipe never fills.
  transport.stderr?.on("data", () => undefined);
  client = new Client({ name: "skillgate-bench", version: "0.0.0" });
  await client.connect(transport);
  // V8 collects lazily, so a server's RSS follows GC timing; the leak criterion is the heap after forced full GCs,
  // measured on the same server code and SDK client over an in-memory transport in a child with --expose-gc.
  const child = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "mcp-heap-child.ts")],
    { cwd: REPO, env: { ...process.env, NODE_OPTIONS: "" } },
  );
  heapAfterGc = (
    JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as { heap: Record<number, number> }
  ).heap;
  for (let i = 0; i < 100; i++) {
    await client.ping();
    await listSkill();
    await client.callTool({ name: "Status", arguments: {} });
  }
  calls = 0;
}, 180_000);

afterAll(async () => {
  await client?.close();
  bw.cleanup();
  if (samples.get("list").length === 0) return; // set-up failed: vitest reports why
  const list = samples.get("list");
  const ping = samples.get("ping");
  const status = samples.get("status");
  const rss1k = rssAt.get(TIMED_CALLS) ?? Number.NaN;
  const rss10k = rssAt.get(TOTAL_CALLS) ?? Number.NaN;
  const late = samples.get("list.late");
  printTable(
    `MCP over stdio: ${TIMED_CALLS.toLocaleString("en")} sequential ListSkill calls (SDK client)`,
    [
      {
        name: "ListSkill round trip p50",
        ours: percentile(list, 50),
        baseline: percentile(ping, 50),
        baselineName: "JSON-RPC `ping` round trip (client.ping(), same connection, interleaved)",
        target: "< 5 ms",
        met: percentile(list, 50) < 5,
      },
      {
        name: "ListSkill round trip p99",
        ours: percentile(list, 99),
        baseline: percentile(ping, 99),
        target: "",
        met: null,
      },
      {
        name: "Status tool round trip p50 (trivial tool)",
        ours: percentile(status, 50),
        baseline: percentile(ping, 50),
        target: "",
        met: null,
      },
      {
        name: `ListSkill p50, calls ${TOTAL_CALLS - 1000}-${TOTAL_CALLS}`,
        ours: percentile(late, 50),
        baseline: percentile(list, 50),
        baselineName: `ListSkill p50 of the first ${TIMED_CALLS} calls`,
        target: "",
        met: null,
      },
      {
        name: `server RSS after ${TOTAL_CALLS.toLocaleString("en")} ListSkill calls`,
        ours: rss10k,
        baseline: rss1k,
        baselineName: `server RSS after ${TIMED_CALLS.toLocaleString("en")} calls (VmRSS of the serve process)`,
        target: "",
        met: null,
        unit: "MiB",
      },
      {
        name: `server heap after full GC, ${TOTAL_CALLS.toLocaleString("en")} ListSkill calls`,
        ours: heapAfterGc[TOTAL_CALLS] ?? Number.NaN,
        baseline: heapAfterGc[TIMED_CALLS] ?? Number.NaN,
        baselineName: "same after 1,000 calls (createMcpServer + SDK client in memory, node --expose-gc)",
        target: "growth < 1 MiB",
        met: (heapAfterGc[TOTAL_CALLS] ?? Number.POSITIVE_INFINITY) - (heapAfterGc[TIMED_CALLS] ?? 0) < 1,
        unit: "MiB",
      },
    ],
    {
      notes: [
        `server: node dist/runtime/cli/main.js serve --workspace WS (51 skills, one stage skill); stderr drained.`,
        `RSS by calls: ${[...rssAt.entries()].map(([n, mib]) => `${n}: ${mib.toFixed(1)} MiB`).join(", ")}`,
        "RSS rises until V8's next major GC, then falls back (30,000-call run: 128 -> 167 -> 131 MiB); the heap row is the leak check.",
      ],
    },
  );
});

describe("MCP stdio", () => {
  bench(
    `${TIMED_CALLS} sequential ListSkill (+ ping, Status interleaved)`,
    async () => {
      for (let i = 0; i < TIMED_CALLS; i++) {
        await samples.timeAsync("ping", () => client.ping());
        await samples.timeAsync("list", listSkill);
        if (i % 5 === 0)
          await samples.timeAsync("status", () => client.callTool({ name: "Status", arguments: {} }));
      }
      rssAt.set(calls, serverRssMiB());
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
  bench(
    `ListSkill up to ${TOTAL_CALLS} calls (memory)`,
    async () => {
      while (calls < TOTAL_CALLS) {
        if (calls >= TOTAL_CALLS - 1000) await samples.timeAsync("list.late", listSkill);
        else await listSkill();
        if (calls % 1000 === 0) rssAt.set(calls, serverRssMiB());
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
