// runtime/tools/engine-on-use.ts: one start, on first use; every method waits for it; its error every time.
import { describe, expect, it } from "vitest";
import type { SkillgateStageEngine } from "../../runtime/stage/index.js";
import { engineOnUse } from "../../runtime/tools/engine-on-use.js";

function fakeEngine(warnings: string[]): SkillgateStageEngine {
  return {
    drainWarnings: () => warnings.splice(0),
    trustedManifest: async () => ({ "a/scripts/x.py": "f00" }),
    current: async () => null,
  } as unknown as SkillgateStageEngine;
}

describe("engineOnUse", () => {
  it("starts nothing until used, then once for every caller", async () => {
    let starts = 0;
    const onUse = engineOnUse(async () => {
      starts++;
      return fakeEngine(["ledger warning"]);
    });
    expect(starts).toBe(0);
    // Not started: no warnings to drain yet (callTool awaits started() before draining).
    expect(onUse.engine.drainWarnings?.()).toEqual([]);
    const [manifest, stage] = await Promise.all([onUse.engine.trustedManifest?.(), onUse.engine.current()]);
    await onUse.started();
    expect(starts).toBe(1);
    expect(manifest).toEqual({ "a/scripts/x.py": "f00" });
    expect(stage).toBeNull();
    expect(onUse.engine.drainWarnings?.()).toEqual(["ledger warning"]);
  });

  it("rejects with the start's error on every use, and starts only once", async () => {
    let starts = 0;
    const failure = new Error("workflow broken");
    const onUse = engineOnUse(async () => {
      starts++;
      throw failure;
    });
    await expect(onUse.started()).rejects.toBe(failure);
    await expect(onUse.engine.trustedManifest?.()).rejects.toBe(failure);
    await expect(onUse.started()).rejects.toBe(failure);
    expect(starts).toBe(1);
    expect(onUse.engine.drainWarnings?.()).toEqual([]);
  });
});
