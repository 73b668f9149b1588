// runtime/exec/supervise/ticker.ts: one timer per interval for every live run's periodic check; real supervised runs share it and still stop alone.
import { mkdirSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { budgetWatch } from "../../../runtime/exec/prepare/workspace-budget.js";
import { type SuperviseInput, supervise } from "../../../runtime/exec/supervise/supervise.js";
import { SharedTicker, sharedTicker } from "../../../runtime/exec/supervise/ticker.js";
import { tempRoot } from "../../support/workspace.js";
import { superviseInput, superviseLimits } from "./helpers.js";

const temp = tempRoot("skillgate-ticker-", { realpath: true });
afterAll(() => temp.cleanup());
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Resolves once `condition` holds, checked on every timer turn (no fixed sleep). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

const LIMITS = superviseLimits(20_000);

async function input(argv: string[], area: string, files: number): Promise<SuperviseInput> {
  mkdirSync(area, { recursive: true });
  const { watch } = await budgetWatch({
    writablePaths: [area],
    sensitivePaths: [],
    budget: { files, bytes: 64 * 1024 * 1024 },
  });
  if (watch === null) throw new Error("the budget could not be enforced");
  return superviseInput(argv, temp.dir, LIMITS, { area: watch });
}

describe("SharedTicker", () => {
  it("runs every job of an interval on one timer, each once a tick, and stops the timer with the last job", async () => {
    const ticker = new SharedTicker();
    const calls = { a: 0, b: 0 };
    stops.push(ticker.every(5, () => calls.a++));
    const stopB = ticker.every(5, () => calls.b++);
    stops.push(ticker.every(7, () => undefined));
    expect([ticker.timers, ticker.jobs]).toEqual([2, 3]);
    await until(() => calls.a >= 3 && calls.b >= 3);
    // One timer calls both in the same tick: they never drift more than one call apart.
    expect(Math.abs(calls.a - calls.b)).toBeLessThanOrEqual(1);
    stopB();
    const b = calls.b;
    const a = calls.a;
    await until(() => calls.a >= a + 2);
    expect(calls.b).toBe(b);
    for (const stop of stops.splice(0)) stop();
    expect([ticker.timers, ticker.jobs]).toEqual([0, 0]);
  });

  it("a function registered twice runs twice a tick; a job stopped during a tick is not called in it", async () => {
    const ticker = new SharedTicker();
    let twice = 0;
    const job = () => twice++;
    stops.push(ticker.every(5, job), ticker.every(5, job));
    let late = 0;
    // The first job of the tick stops the second: the second is not called in that tick.
    let stopLate = (): void => undefined;
    stops.push(ticker.every(6, () => stopLate()));
    stopLate = ticker.every(6, () => late++);
    await until(() => twice >= 4);
    expect(twice % 2).toBe(0);
    expect(late).toBe(0);
  });
});

describe("supervise on the shared tick", () => {
  it("checks concurrent runs' areas on one timer and stops only the run over its budget", async () => {
    const release = temp.path("release");
    const holder = (name: string) =>
      input(
        [
          "sh",
          "-c",
          `: > ${temp.path(name)}/alive; i=0; while [ ! -e ${release} ] && [ $i -lt 2000 ]; do i=$((i+1)); sleep 0.01; done; echo held`,
        ],
        temp.path(name),
        1_000,
      ).then(supervise);
    const holders = [holder("a"), holder("b")];
    await until(() => sharedTicker.jobs === 2);
    expect(sharedTicker.timers).toBe(1);
    const floodArea = temp.path("flood");
    const flood = await supervise(
      await input(["sh", "-c", `i=0; while true; do i=$((i+1)); : > ${floodArea}/f$i; done`], floodArea, 50),
    );
    expect(flood.limit).toBe("workspace_limit");
    expect(flood.workspaceExcess).toMatchObject({ kind: "files", limit: 50 });
    mkdirSync(release);
    for (const run of await Promise.all(holders)) expect([run.limit, run.stdout]).toEqual([null, "held\n"]);
    expect([sharedTicker.timers, sharedTicker.jobs]).toEqual([0, 0]);
  });
});
