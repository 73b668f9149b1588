// Writing ledger records (ledger-commit.ts): sealed records made durable in order, then the head mark and the checkpoint when due; a deferred
// run receipt leaves both behind; a refused append records nothing and moves nothing.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  evidenceLocations,
  type LedgerKeys,
  type LedgerRecord,
  localKeys,
  type UnsignedRecord,
} from "../../runtime/evidence/index.js";
import { type CommitDeps, SealedBatch, writeSealed } from "../../runtime/evidence/ledger-commit.js";
import { type LoadContext, loadLedger } from "../../runtime/evidence/ledger-load.js";
import { stageFileAtomic, writeFileAtomic } from "../../runtime/workspace/index.js";
import { useLedgerFixture } from "./helpers.js";

const run = promisify(execFile);
const fx = useLedgerFixture();
let keys: LedgerKeys;
beforeEach(async () => {
  keys = localKeys(evidenceLocations(fx.paths, fx.home));
});

const now = () => new Date("2026-01-01T00:00:00.000Z");
function deps(checkpointEvery = 32): CommitDeps & LoadContext {
  return {
    paths: fx.paths,
    keys,
    now,
    writeAtomic: (path, data) => writeFileAtomic(path, data),
    stageAtomic: (path, data) => stageFileAtomic(path, data),
    checkpointEvery,
  };
}
const d = (kind: UnsignedRecord["kind"], data: Record<string, unknown> = {}): UnsignedRecord => ({
  stage: 0,
  kind,
  data,
});
const lines = (): LedgerRecord[] =>
  readFileSync(fx.paths.ledger, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));
const checkpointSeq = async () => JSON.parse(await readFile(fx.paths.progress, "utf8")).ledger.seq as number;

/** Loads the ledger, seals `drafts` (after any record the load queued) and writes them. */
async function commit(drafts: UnsignedRecord[], options: { sync?: boolean; every?: number } = {}) {
  const loaded = await loadLedger(deps(options.every), {});
  const batch = new SealedBatch(loaded, deps());
  const sealed = [...(await batch.seal(loaded.pending)), ...(await batch.seal(drafts))];
  const outcome = await writeSealed(deps(options.every), batch, { sync: options.sync });
  return { loaded, sealed, outcome };
}

describe("SealedBatch and writeSealed", () => {
  it("a new ledger: genesis and records appended in order at the offsets given, mark on the last, first checkpoint written", async () => {
    const { loaded, sealed, outcome } = await commit([
      d("stage_enter", { name: "review" }),
      d("list", { skills: ["a/one"] }),
    ]);
    expect(sealed.map((r) => [r.seq, r.kind])).toEqual([
      [1, "genesis"],
      [2, "stage_enter"],
      [3, "list"],
    ]);
    expect(lines()).toEqual(sealed);
    const bytes = readFileSync(fx.paths.ledger);
    expect(outcome).toEqual({ ends: expect.any(Array), wrote: true, warnings: [] });
    expect(outcome.ends.at(-1)).toBe(bytes.length);
    for (const end of outcome.ends) expect(bytes[end - 1]).toBe(10);
    expect(await keys.readHead()).toMatchObject({
      seq: 3,
      hash: sealed[2]!.hash,
      initId: loaded.snapshot.state.identity!.initId,
    });
    expect(await checkpointSeq()).toBe(3);
    expect(loaded.snapshot.state.skills["a/one"]?.list).toBe(true);
    expect(loaded).toMatchObject({
      markBehind: false,
      dirty: false,
      checkpoint: { seq: 3, offset: bytes.length },
    });
    const again = await loadLedger(deps(), {});
    expect(again.snapshot.state).toEqual(loaded.snapshot.state);
    expect(again.snapshot.warnings).toEqual([]);
    // No staged temp file is left beside the checkpoint or the mark.
    expect(readdirSync(fx.paths.skillgateDir).sort()).toEqual([
      "ledger.jsonl",
      "ledger.pub",
      "progress.json",
    ]);
    expect(readdirSync(dirname(keys.headFile)).filter((f) => !f.endsWith(".json"))).toEqual([]);
  });

  it("the checkpoint waits for `checkpointEvery` records, but a passing complete or a bind always writes it", async () => {
    await commit([d("stage_enter", { name: "review" })], { every: 3 });
    expect(await checkpointSeq()).toBe(2);
    await commit([d("list", { skills: ["a"] })], { every: 3 });
    await commit([d("list", { skills: ["b"] })], { every: 3 });
    expect(await checkpointSeq()).toBe(2);
    expect((await keys.readHead())?.seq).toBe(4);
    await commit([d("list", { skills: ["c"] })], { every: 3 });
    expect(await checkpointSeq()).toBe(5);
    await commit([d("complete", { passed: true, next: 1, nextName: "next" })], { every: 3 });
    expect(await checkpointSeq()).toBe(6);
  });

  it("a deferred run receipt is in the file at once; the mark and checkpoint follow only the next synced commit", async () => {
    await commit([d("stage_enter", { name: "review" })]);
    const { loaded, outcome } = await commit([d("run", { i: 1 }), d("use", { skills: ["a/one"] })], {
      sync: false,
    });
    expect(outcome.wrote).toBe(true);
    expect(lines().map((r) => r.kind)).toEqual(["genesis", "stage_enter", "run", "use"]);
    expect(loaded).toMatchObject({ unsynced: true, markBehind: true });
    expect((await keys.readHead())?.seq).toBe(2);
    expect(await checkpointSeq()).toBe(2);
    // A gate record is never deferred, even when asked.
    await commit([d("check", { passed: true })], { sync: false });
    expect((await keys.readHead())?.seq).toBe(5);
  });

  it("an append the file system refuses records nothing and moves neither the mark nor the checkpoint", async () => {
    await commit([d("stage_enter", { name: "review" })]);
    const before = readFileSync(fx.paths.ledger);
    const mark = await keys.readHead();
    const progress = readFileSync(fx.paths.progress);
    // Immutable even for root: the append itself is refused by the file system.
    await run("chattr", ["+i", fx.paths.ledger]);
    let failure: unknown;
    try {
      failure = await commit([d("complete", { passed: true, next: 1 })]).catch((error: unknown) => error);
    } finally {
      await run("chattr", ["-i", fx.paths.ledger]);
    }
    expect(failure).toMatchObject({ code: "PERMISSION_DENIED" });
    expect(readFileSync(fx.paths.ledger).equals(before)).toBe(true);
    expect(await keys.readHead()).toEqual(mark);
    expect(readFileSync(fx.paths.progress).equals(progress)).toBe(true);
    expect(readdirSync(fx.paths.skillgateDir).sort()).toEqual([
      "ledger.jsonl",
      "ledger.pub",
      "progress.json",
    ]);
  });

  it("a checkpoint that cannot be written leaves the records recorded and says so", async () => {
    await commit([d("stage_enter", { name: "review" })]);
    await run("chattr", ["+i", fx.paths.progress]);
    let outcome: Awaited<ReturnType<typeof commit>>["outcome"];
    try {
      ({ outcome } = await commit([d("complete", { passed: true, next: 1 })]));
    } finally {
      await run("chattr", ["-i", fx.paths.progress]);
    }
    expect(lines().map((r) => r.kind)).toEqual(["genesis", "stage_enter", "complete"]);
    expect(outcome.warnings).toEqual([
      `the progress checkpoint ${fx.paths.progress} could not be written (PERMISSION_DENIED); evidence is recorded in the ledger, loads are slower until it can be written`,
    ]);
    expect((await keys.readHead())?.seq).toBe(3);
  });
});
