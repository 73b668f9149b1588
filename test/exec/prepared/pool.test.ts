// PreparedPool: when the next sandbox is made (after a repeated plan, and only once the tool call asking for it settled).
import { describe, expect, it } from "vitest";
import type { HeldSandbox, HoldDeps } from "../../../runtime/exec/prepared/held.js";
import { PreparedPool } from "../../../runtime/exec/prepared/pool.js";
import type { RunRequest } from "../../../runtime/exec/types.js";

const REQ = { cwd: "/ws", limits: { maxProcesses: 8, memoryBytes: 1 } } as unknown as RunRequest;
const DEPS: HoldDeps = { platform: "linux", hostEnv: {} };

/** A pool whose sandbox builder only records when it was asked (the real one spawns bwrap: test/exec/prepared-sandbox). */
function recordingPool(): { pool: PreparedPool; asked: string[] } {
  const asked: string[] = [];
  const pool = new PreparedPool(async () => {
    asked.push("hold");
    return null as HeldSandbox | null;
  });
  return { pool, asked };
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("PreparedPool", () => {
  it("prepares only after a run repeated the previous run's plan (or was served by a held sandbox)", async () => {
    const { pool, asked } = recordingPool();
    pool.afterRun("a", false, REQ, DEPS);
    await pool.settled();
    expect(asked).toEqual([]);
    pool.afterRun("a", false, REQ, DEPS);
    await pool.settled();
    expect(asked).toEqual(["hold"]);
    pool.afterRun("b", true, REQ, DEPS);
    await pool.settled();
    expect(asked).toEqual(["hold", "hold"]);
    pool.afterRun(null, true, REQ, DEPS);
    await pool.settled();
    expect(asked).toHaveLength(2);
    await pool.close();
  });

  it("holds the making of the next sandbox back until every call inside holdWhile settled", async () => {
    const { pool, asked } = recordingPool();
    let releaseSecond: () => void = () => undefined;
    const second = pool.holdWhile(() => new Promise<void>((resolve) => (releaseSecond = resolve)));
    await pool.holdWhile(async () => {
      pool.afterRun("a", true, REQ, DEPS);
      await turns(5);
      expect(asked).toEqual([]);
    });
    await turns(5);
    expect(asked).toEqual([]); // the other call still runs
    releaseSecond();
    await second;
    await pool.settled();
    expect(asked).toEqual(["hold"]);
    await pool.close();
  });

  it("a run waits for a sandbox already being made for it, and does not wait for one not begun yet", async () => {
    const made = { runId: "sg-made" } as HeldSandbox;
    let finish: () => void = () => undefined;
    const pool = new PreparedPool(
      () => new Promise<HeldSandbox | null>((resolve) => (finish = () => resolve(made))),
    );
    // Not begun: the call that asked for it still runs, so a run inside it starts fresh at once.
    await pool.holdWhile(async () => {
      pool.afterRun("a", true, REQ, DEPS);
      expect(await pool.take()).toBeNull();
    });
    await turns(3); // now it is being made
    const taking = pool.take();
    await turns(3);
    finish();
    expect(await taking).toBe(made);
    expect(pool.stats.prepared).toBe(1);
    expect(pool.idlePids()).toEqual([]);
    await pool.close();
  });

  it("a throwing call still lets the next sandbox be made", async () => {
    const { pool, asked } = recordingPool();
    await expect(
      pool.holdWhile(async () => {
        pool.afterRun("a", true, REQ, DEPS);
        throw new Error("call failed");
      }),
    ).rejects.toThrow("call failed");
    await pool.settled();
    expect(asked).toEqual(["hold"]);
    await pool.close();
  });
});
