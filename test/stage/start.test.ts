// Engine start: a new engine resumes the stage with its evidence; resetCheckOnStart forgets the last Check.
import { afterEach, describe, expect, it } from "vitest";
import {
  cleanup,
  collectAll,
  forcedStage,
  PLAIN_STAGE,
  SCRIPT,
  setup,
  TEXT,
  USED,
  ws,
} from "./engine-fixture.js";

afterEach(cleanup);

describe("persistence", () => {
  it("a new engine resumes the stage with its evidence", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const first = await ws!.engine();
    await collectAll(first);
    await first.check();
    const second = await ws!.engine();
    const view = await second.current();
    expect(view?.evidence[SCRIPT]).toEqual({ list: true, read: true, use: true });
    expect(view?.checkPassed).toBe(true);
    expect((await second.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
    const third = await ws!.engine();
    expect((await third.complete()).isError).toBe(false);
    expect((await (await ws!.engine()).current())?.config.name).toBe("plain");
  });

  it("with resetCheckOnStart a restarted engine starts with checkPassed false", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const first = await ws!.engine();
    await collectAll(first);
    await first.check();
    const restarted = await ws!.engine({ resetCheckOnStart: true });
    const view = await restarted.current();
    expect(view?.checkPassed).toBe(false);
    expect(view?.evidence[TEXT]).toEqual({ list: true, read: true, use: false });
  });
});
