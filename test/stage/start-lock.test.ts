// Engine start without the workspace lock: a start that appends nothing takes no lock; any start that must write still does.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { LEDGER_WAIT_CHANNEL } from "../../runtime/evidence/index.js";
import { cleanup, collectAll, forcedStage, PLAIN_STAGE, SCRIPT, setup, ws } from "./engine-fixture.js";

/** Ledger transactions that took this workspace's lock while `fn` ran (the group commit publishes one per transaction). */
async function lockedTransactions(fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const lockFile = ws!.paths.lockFile;
  const onWait = (message: unknown) => {
    if ((message as { lockPath?: string }).lockPath === lockFile) count++;
  };
  subscribe(LEDGER_WAIT_CHANNEL, onWait);
  try {
    await fn();
  } finally {
    unsubscribe(LEDGER_WAIT_CHANNEL, onWait);
  }
  return count;
}

const kinds = async (): Promise<string[]> =>
  (await readFile(ws!.paths.ledger, "utf8"))
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => (JSON.parse(line) as { kind: string }).kind);

afterEach(cleanup);

describe("engine start and the workspace lock", () => {
  it("a start on a bound workspace appends nothing, takes no lock and resumes the evidence", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    await collectAll(await ws!.engine());
    const before = await readFile(ws!.paths.ledger, "utf8");
    const views: unknown[] = [];
    const locked = await lockedTransactions(async () => {
      views.push((await (await ws!.engine()).current())?.evidence[SCRIPT]);
    });
    expect(locked).toBe(0);
    expect(await readFile(ws!.paths.ledger, "utf8")).toBe(before);
    expect(views).toEqual([{ list: true, read: true, use: true }]);
  });

  it("the first start still writes genesis, stage_enter and bind under the lock", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const locked = await lockedTransactions(async () => {
      await (await ws!.engine()).current();
    });
    expect(locked).toBe(1);
    expect(await kinds()).toEqual(["genesis", "stage_enter", "bind"]);
  });

  it("resetCheckOnStart after a passing Check still appends check_reset under the lock", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const first = await ws!.engine();
    await collectAll(first);
    await first.check();
    const locked = await lockedTransactions(async () => {
      expect((await (await ws!.engine({ resetCheckOnStart: true })).current())?.checkPassed).toBe(false);
    });
    expect(locked).toBe(1);
    expect((await kinds()).at(-1)).toBe("check_reset");
  });

  it("a start on a hand-edited ledger quarantines the edit under the lock and reports it", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    await collectAll(await ws!.engine());
    const text = await readFile(ws!.paths.ledger, "utf8");
    const edited = text.replace(/"kind":"list"/, '"kind":"lisx"');
    expect(edited).not.toBe(text);
    await writeFile(ws!.paths.ledger, edited);
    let warnings: string[] = [];
    const locked = await lockedTransactions(async () => {
      const engine = await ws!.engine();
      warnings = engine.drainWarnings?.() ?? [];
    });
    expect(locked).toBe(1);
    expect(warnings.join("\n")).toContain("noted in a signed quarantine record");
    expect((await kinds()).at(-1)).toBe("quarantine");
  });

  it("a start on a ledger with a torn last line repairs it under the lock", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    await collectAll(await ws!.engine());
    await appendFile(ws!.paths.ledger, '{"seq":99,"kind":"us');
    const locked = await lockedTransactions(async () => {
      await (await ws!.engine()).current();
    });
    expect(locked).toBe(1);
    expect(await readFile(ws!.paths.ledger, "utf8")).toMatch(/"kind":"quarantine"/);
  });
});
