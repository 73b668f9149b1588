// Benchmark: SetSkillUsage + Complete latency must not grow with ledger length (100 vs 100,000 records).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { EvidenceLedger, GENESIS_HASH, type LedgerRecord, sealRecord } from "../../runtime/evidence/index.js";
import type { SkillgateStageEngine } from "../../runtime/stage/index.js";
import { median, printTable } from "../bench/report.js";
import { makeWorkspace, type TestWorkspace } from "../stage/helpers.js";

const SIZES = [100, 100_000] as const;
const TEXT = "review/text-method";
const workspaces: TestWorkspace[] = [];
const engines = new Map<number, SkillgateStageEngine>();
const timings = new Map<number, number[]>();

/** Writes a valid signed ledger of `count` records directly (fast), so the engine starts from a cold checkpoint. */
async function seedLedger(ws: TestWorkspace, count: number): Promise<void> {
  // The genesis record (and the workspace identity) come from the ledger itself; the rest is sealed directly.
  const { readFile, rm } = await import("node:fs/promises");
  const ledger = new EvidenceLedger(ws.paths, { home: ws.home });
  await ledger.read();
  const genesis = JSON.parse((await readFile(ws.paths.ledger, "utf8")).split("\n")[0]!) as LedgerRecord;
  await rm(ws.paths.progress, { force: true });
  const key = await ledger.keys.signerFor(ws.paths.root, String(genesis.data.initId));
  const lines: string[] = [JSON.stringify(genesis)];
  let head = { seq: genesis.seq, hash: genesis.hash };
  void GENESIS_HASH;
  const time = new Date().toISOString();
  for (let i = 0; i < count - 1; i++) {
    const draft =
      i === 0
        ? { stage: 0, kind: "stage_enter" as const, data: { name: "review" } }
        : { stage: 0, kind: "use" as const, data: { skills: ["review/script-method"], detail: { i } } };
    const record = sealRecord(draft, head, time, key);
    lines.push(JSON.stringify(record));
    head = { seq: record.seq, hash: record.hash };
  }
  const { mkdir } = await import("node:fs/promises");
  await mkdir(ws.paths.skillgateDir, { recursive: true });
  await writeFile(ws.paths.ledger, `${lines.join("\n")}\n`);
}

async function oneCall(engine: SkillgateStageEngine): Promise<void> {
  // Both calls are rejected by the evidence checker / gate, append one record each, and run no checker.
  await engine.setSkillUsage({ [TEXT]: { list: true, read: true, use: true } });
  await engine.complete();
}

beforeAll(async () => {
  for (const size of SIZES) {
    const ws = await makeWorkspace({
      stages: [
        {
          name: "review",
          output_files: ["out/report.md"],
          checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
          skill_list: [TEXT],
        },
      ],
    });
    workspaces.push(ws);
    await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
    await seedLedger(ws, size);
    const engine = await ws.engine(); // first load verifies everything once and writes the checkpoint
    await oneCall(engine);
    engines.set(size, engine);
    timings.set(size, []);
  }
}, 600_000);

afterAll(async () => {
  for (const ws of workspaces) await ws.cleanup();
  const small = median(timings.get(SIZES[0]) ?? []);
  const large = median(timings.get(SIZES[1]) ?? []);
  if (Number.isNaN(large)) return; // set-up failed: vitest reports why
  printTable(
    "evidence ledger: one SetSkillUsage + one Complete (both rejected, one record appended each)",
    [
      {
        name: `ledger of ${SIZES[1].toLocaleString("en")} records`,
        ours: large,
        baseline: small,
        baselineName: `same calls on a ledger of ${SIZES[0]} records (interleaved)`,
        target: "< 20 ms, flat in ledger size",
        met: large < 20,
      },
    ],
    {
      notes: [
        `per call: ${(large / 2).toFixed(2)} ms (100,000 records) vs ${(small / 2).toFixed(2)} ms (100 records); loads verify only the tail after the signed checkpoint.`,
      ],
    },
  );
});

describe("SetSkillUsage + Complete", () => {
  // Interleaved so machine load drifts affect both sizes alike.
  bench(
    `one SetSkillUsage + one Complete on ledgers of ${SIZES.join(" and ")} records`,
    async () => {
      for (const size of SIZES) {
        const start = performance.now();
        await oneCall(engines.get(size)!);
        timings.get(size)!.push(performance.now() - start);
      }
    },
    { iterations: 60, warmupIterations: 3, time: 0 },
  );
});
