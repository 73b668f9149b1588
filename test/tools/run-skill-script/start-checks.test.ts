// runtime/tools/run-skill-script/start-checks.ts: the engine's start and the digest checks, once, as a run's gate.
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SkillgateError } from "../../../runtime/errors.js";
import { refusalOf, startChecks } from "../../../runtime/tools/run-skill-script/start-checks.js";
import type { Session } from "../../../runtime/tools/types.js";
import { type Fixture, GATE_SKILL, makeFixture, tamper } from "../helpers.js";

let f: Fixture | undefined;
afterEach(() => {
  f?.cleanup();
  f = undefined;
});

/** A session whose engine start is counted (and fails with `error` when given). */
function counted(base: Session, error?: unknown): { session: Session; starts: () => number } {
  let starts = 0;
  const session: Session = {
    ...base,
    engineStarted: async () => {
      starts++;
      if (error !== undefined) throw error;
    },
  };
  return { session, starts: () => starts };
}

describe("startChecks", () => {
  it("passes once for every caller when the engine starts and the scripts are the ones bound", async () => {
    f = makeFixture();
    const base = await f.open();
    const script = join(base.paths.skillsDir, GATE_SKILL, "scripts", "make_report.py");
    const { session, starts } = counted(base);
    const checks = startChecks(session, [{ index: 1, scriptPath: script }]);
    expect(await Promise.all([checks.gate(), checks.gate(), checks.run()])).toEqual([true, true, null]);
    expect(starts()).toBe(1);
  });

  it("a modified script: its Command k invalid answer, and the gate stays shut", async () => {
    f = makeFixture();
    const base = await f.open();
    const script = join(base.paths.skillsDir, GATE_SKILL, "scripts", "make_report.py");
    tamper(script, "print('forged')\n");
    const checks = startChecks(counted(base).session, [{ index: 2, scriptPath: script }]);
    expect(await checks.gate()).toBe(false);
    const failure = await checks.run();
    expect(failure && refusalOf(failure)).toMatchObject({ isError: true, code: "SCRIPT_MODIFIED" });
    expect(failure && refusalOf(failure).text).toMatch(/^Command 2 invalid: /);
  });

  it("an engine that fails to start: the gate stays shut and the answer is that same error, thrown", async () => {
    f = makeFixture();
    const error = new SkillgateError("WORKFLOW_INVALID", "stage 0 is broken");
    const { session, starts } = counted(await f.open(), error);
    const checks = startChecks(session, []);
    expect(await checks.gate()).toBe(false);
    const failure = await checks.run();
    expect(failure).not.toBeNull();
    expect(() => refusalOf(failure as NonNullable<typeof failure>)).toThrow(error);
    expect(starts()).toBe(1);
  });
});
