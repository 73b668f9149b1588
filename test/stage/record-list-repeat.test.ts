// A repeated ListSkill that changes no flag leaves the ledger untouched; a new stage skill or a hand edit still counts.
import { readFile, stat } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace } from "./helpers.js";

const TEXT = "review/text-method";
const SCRIPT = "review/script-method";
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace({
    stages: [
      {
        name: "review",
        output_files: ["out/report.md"],
        checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
        skill_list: [TEXT, SCRIPT],
      },
    ],
  });
});
afterEach(async () => {
  await ws.cleanup();
});

async function ledgerState(): Promise<{ text: string; ctimeNs: bigint }> {
  const info = await stat(ws.paths.ledger, { bigint: true });
  return { text: await readFile(ws.paths.ledger, "utf8"), ctimeNs: info.ctimeNs };
}

describe("recordList on unchanged evidence", () => {
  it("writes nothing when every listed skill already has list evidence", async () => {
    const engine = await ws.engine();
    await engine.recordList([TEXT]);
    const before = await ledgerState();
    await engine.recordList([TEXT]);
    await engine.recordList([TEXT]);
    expect(await ledgerState()).toEqual(before);
    expect((await engine.current())?.evidence[TEXT]?.list).toBe(true);
  });

  it("still records a stage skill not listed before", async () => {
    const engine = await ws.engine();
    await engine.recordList([TEXT]);
    await engine.recordList([TEXT, SCRIPT]);
    const kinds = (await readFile(ws.paths.ledger, "utf8"))
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { kind: string; data: { skills?: string[] } })
      .filter((record) => record.kind === "list")
      .map((record) => record.data.skills);
    expect(kinds).toEqual([[TEXT], [TEXT, SCRIPT]]);
    expect((await engine.current())?.evidence[SCRIPT]?.list).toBe(true);
  });
});
