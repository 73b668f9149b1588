// The concurrency bench's preload sees what the runtime publishes: lock takes, holds and ledger-transaction waits of a real process.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useLedgerFixture } from "../evidence/helpers.js";
import { REPO_ROOT } from "../tools/helpers.js";

const PROBE = fileURLToPath(new URL("./lock-wait-probe.mjs", import.meta.url));
const CHILD = fileURLToPath(new URL("../evidence/ledger-child.ts", import.meta.url));
const run = promisify(execFile);

const fx = useLedgerFixture();

interface Waits {
  acquisitions: number[];
  holds: number[];
  transactions: number[];
  batches: number[];
  slots: number[];
  queued: number[];
}

describe("lock-wait-probe.mjs", () => {
  it("records every lock take with its hold and every transaction's wait of a process appending 30 records at once", async () => {
    const out = fx.paths.root.replace(/ws$/, "waits.json");
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "--import", PROBE, CHILD, fx.paths.root, fx.home, "p", "30"],
      { cwd: REPO_ROOT, env: { ...process.env, SKILLGATE_BENCH_LOCK_WAITS: out }, timeout: 120_000 },
    );
    expect({ stdout, stderr }).toEqual({ stdout: "done p\n", stderr: "" });
    const waits = JSON.parse(readFileSync(out, "utf8")) as Waits;
    // 30 transactions (the first also seals the genesis record), grouped into fewer commits: one lock take each.
    expect(waits.transactions).toHaveLength(30);
    expect(waits.batches.reduce((sum, n) => sum + 1 / n, 0)).toBeCloseTo(waits.acquisitions.length, 6);
    expect(waits.acquisitions.length).toBeGreaterThan(0);
    expect(waits.acquisitions.length).toBeLessThan(30);
    expect(waits.holds).toHaveLength(waits.acquisitions.length);
    for (const ms of [...waits.acquisitions, ...waits.holds, ...waits.transactions])
      expect(ms).toBeGreaterThanOrEqual(0);
    expect({ slots: waits.slots, queued: waits.queued }).toEqual({ slots: [], queued: [] });
  });
});
