// The ledger head mark (head-mark.ts): an older ledger/progress copy put back is refused as a rollback, a crash between append and mark is not; the mark file itself.
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { stageHeadMark, writeHeadMark } from "../../runtime/evidence/head-mark.js";
import {
  evidenceLocations,
  type HeadMark,
  readHeadMark,
  rollbackVerdict,
} from "../../runtime/evidence/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { tempRoot } from "../support/workspace.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture } from "../tools/helpers.js";
import { completeStage0 } from "./attack-fixture.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

function lastRecord(ledger: string): { seq: number; hash: string } {
  const lines = readFileSync(ledger, "utf8").trim().split("\n");
  const { seq, hash } = JSON.parse(lines.at(-1)!);
  return { seq, hash };
}

function setup() {
  fixture = makeFixture();
  const paths = workspacePaths(fixture.ws);
  const headFile = evidenceLocations(paths, fixture.home).headFile;
  const save = (name: string) => {
    copyFileSync(paths.ledger, join(fixture!.dir, `${name}.ledger`));
    copyFileSync(paths.progress, join(fixture!.dir, `${name}.progress`));
  };
  const restore = (name: string, which: Array<"ledger" | "progress"> = ["ledger", "progress"]) => {
    for (const w of which) copyFileSync(join(fixture!.dir, `${name}.${w}`), paths[w]);
  };
  const mark = (): HeadMark => JSON.parse(readFileSync(headFile, "utf8"));
  return { f: fixture, paths, headFile, save, restore, mark };
}

const short = (h: string) => h.slice(0, 12);

describe("rollback within one init", () => {
  it.each([
    { name: "ledger.jsonl and progress.json both put back", which: ["ledger", "progress"] as const },
    { name: "only ledger.jsonl put back (the newer checkpoint kept)", which: ["ledger"] as const },
  ])("$name: LEDGER_ROLLBACK naming both heads and the fix; files untouched", async ({ which }) => {
    const { f, paths, headFile, save, restore, mark } = setup();
    const session = await f.open();
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
    save("early");
    const early = lastRecord(paths.ledger);
    await completeStage0(session);
    const reached = mark();
    expect(reached.seq).toBe(lastRecord(paths.ledger).seq);
    restore("early", [...which]);
    const before = readFileSync(paths.ledger);
    const again = await f.open();
    const status = await callTool(again, "Status", {});
    expect(status.code).toBe("LEDGER_ROLLBACK");
    expect(status.text).toContain(
      `The evidence ledger .ucagent/skillgate/ledger.jsonl ends at record ${early.seq} (hash ${short(early.hash)}), but this init's ledger already reached record ${reached.seq} (hash ${short(reached.hash)}): an older copy of ledger.jsonl/progress.json was put back, so its progress is refused as a rollback. Nothing was changed. Put back the newer ledger.jsonl and progress.json; or, to continue from this older copy on purpose (the later records are lost), delete ${headFile}.`,
    );
    expect((await callTool(again, "Complete", {})).code).toBe("LEDGER_ROLLBACK");
    expect((await callTool(again, "ListSkill", {})).code).toBe("LEDGER_ROLLBACK");
    expect(readFileSync(paths.ledger).equals(before)).toBe(true);
    expect(mark()).toEqual(reached);
    // The fix named in the message works: deleting the head accepts the older copy.
    rmSync(headFile);
    const accepted = await callTool(await f.open(), "Status", {});
    expect(accepted.isError).toBe(false);
    expect(accepted.text).toContain("Progress: 0/2 stages completed");
    expect(mark().seq).toBe(lastRecord(paths.ledger).seq);
  });

  it("a chain that diverges at the recorded head is LEDGER_ROLLBACK too", async () => {
    const { f, paths, headFile, mark } = setup();
    const session = await f.open();
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
    const head = lastRecord(paths.ledger);
    writeFileSync(headFile, JSON.stringify({ ...mark(), hash: "f".repeat(64) }));
    const status = await callTool(await f.open(), "Status", {});
    expect(status.code).toBe("LEDGER_ROLLBACK");
    expect(status.text).toContain(
      `The evidence ledger .ucagent/skillgate/ledger.jsonl holds another record at seq ${head.seq} than this init's ledger (record ${head.seq} (hash ffffffffffff)); it ends at record ${head.seq} (hash ${short(head.hash)})`,
    );
  });

  it("a crash between the ledger append and the head update loses nothing: the mark catches up", async () => {
    const { f, paths, headFile, mark } = setup();
    const session = await f.open();
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
    const stale = readFileSync(headFile);
    expect((await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD })).isError).toBe(false);
    // As if the process died after appending the read record, before moving the mark.
    writeFileSync(headFile, stale);
    expect(mark().seq).toBeLessThan(lastRecord(paths.ledger).seq);
    const again = await f.open();
    const status = await callTool(again, "Status", {});
    expect(status.isError).toBe(false);
    expect((await again.engine.current())?.evidence[GATE_SKILL]).toMatchObject({ list: true, read: true });
    expect(mark()).toMatchObject(lastRecord(paths.ledger));
  });

  it("a missing head (first run after an upgrade, or a reset home folder) is recreated from the ledger", async () => {
    const { f, paths, headFile, mark } = setup();
    await completeStage0(await f.open());
    rmSync(headFile);
    const status = await callTool(await f.open(), "Status", {});
    expect(status.text).toContain("Progress: 1/2 stages completed");
    expect(existsSync(headFile)).toBe(true);
    expect(mark()).toMatchObject(lastRecord(paths.ledger));
  });

  it("a head of an earlier init says nothing about a fresh init's ledger", async () => {
    const { f, headFile, mark } = setup();
    await completeStage0(await f.open());
    const old = mark();
    rmSync(f.ws, { recursive: true, force: true });
    const fresh = await f.open();
    expect((await callTool(fresh, "Status", {})).isError).toBe(false);
    expect(mark().initId).not.toBe(old.initId);
    expect(existsSync(headFile)).toBe(true);
  });
});

describe("rollbackVerdict", () => {
  const mark = { version: 1 as const, initId: "i", seq: 5, hash: "H5", updatedAt: "" };
  it.each([
    {
      name: "no mark",
      mark: null,
      seen: { head: { seq: 3, hash: "x" }, maxSeq: 3, hashAtMark: null },
      out: { ok: true, advance: true },
    },
    {
      name: "another init's mark",
      mark: { ...mark, initId: "j" },
      seen: { head: { seq: 3, hash: "x" }, maxSeq: 3, hashAtMark: null },
      out: { ok: true, advance: true },
    },
    {
      name: "at the mark",
      mark,
      seen: { head: { seq: 5, hash: "H5" }, maxSeq: 5, hashAtMark: "H5" },
      out: { ok: true, advance: false },
    },
    {
      name: "ahead of the mark (crash after append)",
      mark,
      seen: { head: { seq: 7, hash: "H7" }, maxSeq: 7, hashAtMark: "H5" },
      out: { ok: true, advance: true },
    },
    {
      name: "ahead, mark before the checkpoint (hash unseen)",
      mark,
      seen: { head: { seq: 9, hash: "H9" }, maxSeq: 9, hashAtMark: null },
      out: { ok: true, advance: true },
    },
    {
      name: "an edited tail (tampering, not rollback)",
      mark,
      seen: { head: { seq: 4, hash: "H4" }, maxSeq: 5, hashAtMark: null },
      out: { ok: true, advance: true },
    },
    {
      name: "shorter",
      mark,
      seen: { head: { seq: 4, hash: "H4" }, maxSeq: 4, hashAtMark: null },
      out: { ok: false, kind: "shorter", expected: { seq: 5, hash: "H5" } },
    },
    {
      name: "divergent",
      mark,
      seen: { head: { seq: 6, hash: "X6" }, maxSeq: 6, hashAtMark: "X5" },
      out: { ok: false, kind: "divergent", expected: { seq: 5, hash: "H5" } },
    },
  ])("$name", ({ mark, seen, out }) => {
    expect(rollbackVerdict(mark, "i", seen)).toEqual(out);
  });
});

describe("the head mark file", () => {
  const root = tempRoot("skillgate-head-mark-");
  afterAll(() => root.cleanup());
  const mark: HeadMark = {
    version: 1,
    initId: "i1",
    seq: 4,
    hash: "a".repeat(64),
    updatedAt: "2026-01-01T00:00:00.000Z",
  };

  it("is written 0600 (folder created 0700) and read back", async () => {
    const file = root.path("home", "workspaces", "x.head.json");
    await writeHeadMark(file, mark);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(root.path("home", "workspaces")).mode & 0o777).toBe(0o700);
    expect(await readHeadMark(file)).toEqual(mark);
  });

  it("staged: the old mark stays until commit; abort leaves the old mark and no temp file", async () => {
    const dir = root.path("staged");
    const file = join(dir, "x.head.json");
    await writeHeadMark(file, mark);
    const aborted = await stageHeadMark(file, { ...mark, seq: 5 });
    expect((await readHeadMark(file))?.seq).toBe(4);
    await aborted.abort();
    expect(readdirSync(dir)).toEqual(["x.head.json"]);
    const staged = await stageHeadMark(file, { ...mark, seq: 6 });
    expect((await readHeadMark(file))?.seq).toBe(4);
    await staged.commit();
    expect(await readHeadMark(file)).toEqual({ ...mark, seq: 6 });
    expect(readdirSync(dir)).toEqual(["x.head.json"]);
  });

  it.each([
    ["not JSON", "{"],
    ["a fractional seq", JSON.stringify({ ...mark, seq: 1.5 })],
    ["no hash", JSON.stringify({ ...mark, hash: null })],
  ])("edited by hand (%s) is LEDGER_KEY_MISMATCH with both ways out", async (name, text) => {
    const file = root.path(`edited-${name.replaceAll(" ", "-")}.json`);
    writeFileSync(file, text);
    await expect(readHeadMark(file)).rejects.toMatchObject({
      code: "LEDGER_KEY_MISMATCH",
      message: `the ledger head ${file} is not valid JSON of skillgate; it was edited outside skillgate. Restore it from a backup, or delete it to trust the workspace's ledger as it is (nothing in the workspace was changed).`,
    });
  });
});
