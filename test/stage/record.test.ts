// Recording evidence: read coverage adds up per stage; zero-line reads and other stages do not count.
import { afterEach, describe, expect, it } from "vitest";
import { capDetail } from "../../runtime/stage/record.js";
import {
  cleanup,
  forcedStage,
  PLAIN_STAGE,
  SCRIPT,
  SCRIPT_LINES,
  setup,
  TEXT,
  TEXT_LINES,
  ws,
} from "./engine-fixture.js";
import { wholeFile } from "./helpers.js";

afterEach(cleanup);

describe("read coverage", () => {
  it("partial reads in the current stage add up; a zero-line read is not a read", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    expect(await engine.recordRead(TEXT, { startLine: 1, endLine: 0, totalLines: TEXT_LINES })).toBe(false);
    expect(await engine.recordRead(TEXT, { startLine: 1, endLine: 4, totalLines: TEXT_LINES })).toBe(false);
    expect((await engine.status()).text).toContain(`Read no (read lines 1-4 of ${TEXT_LINES})`);
    expect(await engine.recordRead(TEXT, { startLine: 6, endLine: 9, totalLines: TEXT_LINES })).toBe(false);
    expect(await engine.recordRead(TEXT, { startLine: 5, endLine: 5, totalLines: TEXT_LINES })).toBe(true);
    expect((await engine.current())?.evidence[TEXT]?.read).toBe(true);
  });

  it("reads of skills outside the stage and reads in an earlier stage do not count", async () => {
    await setup([
      { ...forcedStage("first", [SCRIPT]), force_use_skill: false },
      forcedStage("second", [TEXT]),
    ]);
    const engine = await ws!.engine();
    expect(await engine.recordRead(TEXT, wholeFile(TEXT_LINES))).toBe(false);
    await engine.recordRead(SCRIPT, { startLine: 1, endLine: 3, totalLines: SCRIPT_LINES });
    expect((await engine.complete()).isError).toBe(false);
    const view = await engine.current();
    expect(view?.config.name).toBe("second");
    expect(view?.evidence[TEXT]).toEqual({ list: false, read: false, use: false });
  });
});

describe("capDetail", () => {
  it("keeps a small use detail as it is and truncates a huge one to 4000 characters of its JSON", () => {
    expect(capDetail({ commands: [["a", "b.py", ""]] })).toEqual({ commands: [["a", "b.py", ""]] });
    const huge = { output: "x".repeat(5000) };
    expect(capDetail(huge)).toEqual({ truncated: JSON.stringify(huge).slice(0, 4000) });
  });
});
