// Group commit of ledger transactions: serial semantics, durability before the answer, isolation of a failing body,
// a failed append failing its whole commit, and real processes appending to one ledger at once.
import { execFile } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { evidenceLocations, LEDGER_WAIT_CHANNEL, type LedgerRecord } from "../../runtime/evidence/index.js";
import { LOCK_WAIT_CHANNEL } from "../../runtime/workspace/index.js";
import { REPO_ROOT } from "../tools/helpers.js";
import { useLedgerFixture } from "./helpers.js";

const CHILD = fileURLToPath(new URL("./ledger-child.ts", import.meta.url));
const run = promisify(execFile);

const fx = useLedgerFixture();

function records(): LedgerRecord[] {
  return readFileSync(fx.paths.ledger, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as LedgerRecord);
}

/** Counts what is published on a diagnostics channel while `fn` runs. */
async function counting<T>(name: string, fn: () => Promise<T>): Promise<{ value: T; count: number }> {
  let count = 0;
  const listener = () => {
    count += 1;
  };
  subscribe(name, listener);
  try {
    return { value: await fn(), count };
  } finally {
    unsubscribe(name, listener);
  }
}

const runRecord = (data: Record<string, unknown>) => ({ stage: 0, kind: "run" as const, data });

describe("EvidenceLedger group commit in one process", () => {
  it("50 transactions at once: each body sees the records before it, fewer lock acquisitions, the chain verifies", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    const { value: results, count: acquisitions } = await counting(LOCK_WAIT_CHANNEL, () =>
      Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          ledger.transact((snap) => ({
            records: [runRecord({ i, saw: snap.state.runs })],
            result: snap.state.runs,
          })),
        ),
      ),
    );
    // Serial semantics: the bodies saw 0, 1, …, 49 runs, one each (no two bodies saw the same state).
    expect(results.map((r) => r.result).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
    expect(acquisitions).toBeGreaterThan(0);
    expect(acquisitions).toBeLessThan(50);
    // Each caller's snapshot holds its own record.
    for (const r of results) expect(r.snapshot.state.runs).toBeGreaterThanOrEqual(r.result + 1);
    expect(await ledger.verifyAll()).toEqual({ ok: true, records: 51, quarantined: 0 });
    expect(
      records()
        .filter((r) => r.kind === "run")
        .map((r) => r.data.i),
    ).toHaveLength(50);
    const fresh = await fx.ledger(32).read();
    expect(fresh.state.runs).toBe(50);
    expect(fresh.warnings).toEqual([]);
  });

  it("after commits at once the head mark and the checkpoint name durable records, and no temp file is left", async () => {
    const ledger = fx.ledger(4);
    await ledger.read();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ledger.transact(() => ({ records: [runRecord({ i })], result: i })),
      ),
    );
    const all = records();
    const last = all[all.length - 1]!;
    const headFile = evidenceLocations(fx.paths, fx.home).headFile;
    expect(JSON.parse(readFileSync(headFile, "utf8"))).toMatchObject({ seq: last.seq, hash: last.hash });
    const checkpoint = JSON.parse(readFileSync(fx.paths.progress, "utf8")) as {
      ledger: { seq: number; hash: string };
    };
    const anchored = all.find((r) => r.seq === checkpoint.ledger.seq);
    expect(anchored?.hash).toBe(checkpoint.ledger.hash);
    const temps = [...readdirSync(dirname(headFile)), ...readdirSync(fx.paths.skillgateDir)].filter((name) =>
      name.endsWith(".tmp"),
    );
    expect(temps).toEqual([]);
    const fresh = await fx.ledger(4).read();
    expect(fresh.warnings).toEqual([]);
    expect(fresh.state.runs).toBe(40);
  });

  it("publishes every transaction's wait for the lock, with the size of its commit", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    const waits: Array<{ waitedMs: number; batch: number }> = [];
    const listener = (message: unknown) => waits.push(message as { waitedMs: number; batch: number });
    subscribe(LEDGER_WAIT_CHANNEL, listener);
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ledger.transact(() => ({ records: [runRecord({ i })], result: i })),
        ),
      );
    } finally {
      unsubscribe(LEDGER_WAIT_CHANNEL, listener);
    }
    expect(waits).toHaveLength(20);
    expect(Math.max(...waits.map((w) => w.batch))).toBeGreaterThan(1);
    for (const w of waits) expect(w.waitedMs).toBeGreaterThanOrEqual(0);
  });

  it("answers each caller only once its own record is in the file", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        ledger
          .transact(() => ({ records: [runRecord({ i })], result: undefined }))
          .then(({ appended }) => {
            const onDisk = new Set(records().map((r) => r.hash));
            for (const record of appended) if (!onDisk.has(record.hash)) missing.push(`${i}:${record.seq}`);
          }),
      ),
    );
    expect(missing).toEqual([]);
  });

  it("a body that throws fails its own caller only; the others of the commit are recorded", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) =>
        ledger.transact(() => {
          if (i % 3 === 1) throw new Error(`body ${i} failed`);
          return { records: [runRecord({ i })], result: i };
        }),
      ),
    );
    const failed = outcomes.flatMap((o, i) => (o.status === "rejected" ? [i] : []));
    expect(failed).toEqual([1, 4, 7]);
    expect(
      records()
        .filter((r) => r.kind === "run")
        .map((r) => r.data.i)
        .sort(),
    ).toEqual([0, 2, 3, 5, 6, 8]);
    expect(await ledger.verifyAll()).toEqual({ ok: true, records: 7, quarantined: 0 });
  });

  it("an append that fails fails every caller of the commit with its code and records none of them", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    const before = readFileSync(fx.paths.ledger, "utf8");
    // Immutable even for root: the append itself is refused by the file system.
    await run("chattr", ["+i", fx.paths.ledger]);
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          ledger.transact(() => ({ records: [runRecord({ i })], result: i })),
        ),
      );
    } finally {
      await run("chattr", ["-i", fx.paths.ledger]);
    }
    expect(outcomes.map((o) => o.status)).toEqual(Array(6).fill("rejected"));
    for (const o of outcomes)
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: "PERMISSION_DENIED" });
    expect(readFileSync(fx.paths.ledger, "utf8")).toBe(before);
    await ledger.transact(() => ({ records: [runRecord({ i: "after" })], result: undefined }));
    expect(await ledger.verifyAll()).toEqual({ ok: true, records: 2, quarantined: 0 });
  });

  it("a body starting another transaction of its ledger fails clearly instead of waiting on itself", async () => {
    const ledger = fx.ledger(32);
    await expect(
      ledger.transact(async () => {
        await ledger.transact(() => ({ records: [], result: undefined }));
        return { records: [], result: undefined };
      }),
    ).rejects.toMatchObject({
      code: "INTERNAL",
      message: "a ledger transaction body started another transaction",
    });
  });
});

describe("EvidenceLedger group commit across processes", () => {
  it("3 processes and this one appending at once, 4 times over: every record present once, the chain verifies", async () => {
    const ledger = fx.ledger(32);
    await ledger.read();
    let expected = 0;
    for (let round = 0; round < 4; round++) {
      const children = ["a", "b", "c"].map((who) =>
        run(process.execPath, ["--import", "tsx", CHILD, fx.paths.root, fx.home, `${who}${round}`, "25"], {
          cwd: REPO_ROOT,
          timeout: 120_000,
        }),
      );
      const mine = Array.from({ length: 25 }, (_, i) =>
        ledger.transact(() => ({ records: [runRecord({ who: `p${round}`, i })], result: undefined })),
      );
      const outs = await Promise.all(children);
      await Promise.all(mine);
      expect(outs.map((o) => o.stdout)).toEqual(["a", "b", "c"].map((who) => `done ${who}${round}\n`));
      expected += 100;
    }
    const all = records();
    expect(all.map((r) => r.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    const keys = all.filter((r) => r.kind === "run").map((r) => `${r.data.who}:${r.data.i}`);
    expect(new Set(keys).size).toBe(expected);
    expect(keys).toHaveLength(expected);
    expect(await fx.ledger(32).verifyAll()).toEqual({ ok: true, records: expected + 1, quarantined: 0 });
    const fresh = await fx.ledger(32).read();
    expect(fresh.state.runs).toBe(expected);
    expect(fresh.warnings).toEqual([]);
    // This process's cached state after its own commits agrees with a fresh load.
    expect((await ledger.read()).state).toEqual(fresh.state);
  });
});
