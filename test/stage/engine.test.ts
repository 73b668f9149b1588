// The stage engine end to end on real workspaces: SetSkillUsage against evidence, and tampering warnings.
import { readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  cleanup,
  collectAll,
  forcedStage,
  PLAIN_STAGE,
  SCRIPT,
  setup,
  TEXT,
  TEXT_LINES,
  USED,
  ws,
} from "./engine-fixture.js";
import { callOn, wholeFile } from "./helpers.js";

afterEach(cleanup);

describe("SetSkillUsage through the engine", () => {
  it("claims without records are rejected and change nothing", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.check();
    const before = await engine.current();
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.code).toBe("SKILL_USAGE_REJECTED");
    expect(await engine.current()).toEqual(before);
    expect((await engine.ledger.read()).state.usage).toBeNull();
    expect((await engine.complete()).code).toBe("SKILL_USAGE_INCOMPLETE");
  });

  it("SetSkillUsage before Check is rejected and names Check", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await collectAll(engine);
    const result = await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED });
    expect(result.text).toBe(
      [
        "SetSkillUsage rejected for stage 'review'; nothing was recorded.",
        "- the current evidence has not passed `Check` since it last changed (`Check` has not run on the current evidence of this stage).",
        "Next: call `Check`.",
      ].join("\n"),
    );
    await engine.check();
    await engine.recordList([TEXT]); // already listed: not new evidence
    expect((await engine.setSkillUsage({ [TEXT]: USED, [SCRIPT]: USED })).isError).toBe(false);
  });

  it("a text-method use:true is accepted only after list + read + a passing Check", async () => {
    await setup([forcedStage("solo-text", [TEXT]), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT]);
    await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
    expect((await engine.setSkillUsage({ [TEXT]: USED })).code).toBe("SKILL_USAGE_REJECTED");
    await engine.check();
    expect((await engine.setSkillUsage({ [TEXT]: USED })).isError).toBe(false);
    expect((await engine.complete()).isError).toBe(false);
  });
});

describe("tampering seen through the engine", () => {
  it("forged evidence appended to the ledger is dropped and the next tool result warns", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    const lines = (await readFile(ws!.paths.ledger, "utf8")).trim().split("\n");
    const last = JSON.parse(lines[lines.length - 1]!);
    const forged = {
      ...last,
      seq: last.seq + 1,
      prev: last.hash,
      kind: "read",
      data: { skill: TEXT, startLine: 1, endLine: 9, totalLines: 9 },
    };
    await writeFile(ws!.paths.ledger, `${JSON.stringify(forged)}\n`, { flag: "a" });
    const status = await callOn(ws!, engine, "Status");
    expect(status.text).toContain(
      `Warning: evidence ledger ${ws!.paths.ledger}: record ${forged.seq} content does not match its hash (edited)`,
    );
    expect(status.structured.warnings).toHaveLength(1);
    // The forged line is quarantined (kept, not applied) and the stage's evidence must be collected again.
    expect((await engine.current())?.evidence[TEXT]).toEqual({ list: false, read: false, use: false });
  });

  it("a progress file edited to claim evidence is rebuilt from the ledger with a warning", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT, SCRIPT]);
    const progress = JSON.parse(await readFile(ws!.paths.progress, "utf8"));
    progress.state.skills[TEXT] = { list: true, read: true, use: true, readRanges: [[1, 9]], totalLines: 9 };
    await writeFile(ws!.paths.progress, JSON.stringify(progress));
    const result = await callOn(ws!, engine, "Check");
    expect(result.text).toContain(
      `Warning: the progress checkpoint ${ws!.paths.progress} failed verification`,
    );
    expect((await engine.current())?.evidence[TEXT]).toEqual({ list: true, read: false, use: false });
  });
});
