// A stage engine that starts on first use: one-shot `call RunSkillScript` starts it while the script's sandbox is built.
import type { SkillgateStageEngine, StageEngine } from "../stage/index.js";

export interface EngineOnUse {
  engine: StageEngine;
  /** Starts the engine if it has not started; rejects with its start error (every time). */
  started(): Promise<void>;
}

/** Every method waits for the one start; warnings are drained only from a started engine (none before). */
export function engineOnUse(start: () => Promise<SkillgateStageEngine>): EngineOnUse {
  let starting: Promise<SkillgateStageEngine> | undefined;
  let engine: SkillgateStageEngine | undefined;
  const ready = (): Promise<SkillgateStageEngine> => {
    starting ??= start().then((started) => {
      engine = started;
      return started;
    });
    return starting;
  };
  return {
    started: async () => {
      await ready();
    },
    engine: {
      current: async () => (await ready()).current(),
      recordList: async (skillIds) => (await ready()).recordList(skillIds),
      recordRead: async (skillId, range, content) => (await ready()).recordRead(skillId, range, content),
      recordUse: async (skillIds, detail) => (await ready()).recordUse(skillIds, detail),
      check: async () => (await ready()).check(),
      setSkillUsage: async (input) => (await ready()).setSkillUsage(input),
      complete: async () => (await ready()).complete(),
      status: async () => (await ready()).status(),
      drainWarnings: () => engine?.drainWarnings() ?? [],
      trustedManifest: async () => (await ready()).trustedManifest(),
      recordRun: async (receipt, use) => (await ready()).recordRun(receipt, use),
      ledgerHealth: async () => (await ready()).ledgerHealth(),
    },
  };
}
