// Loading the ledger (ledger-load.ts): a fresh ledger's genesis, the refusals that touch nothing, and what a load notes and queues.
import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { evidenceLocations, localKeys, signerFromSeed } from "../../runtime/evidence/index.js";
import { checkpointBytes } from "../../runtime/evidence/ledger-files.js";
import { cloneLoaded, type LoadContext, loadLedger } from "../../runtime/evidence/ledger-load.js";
import { writeFileAtomic } from "../../runtime/workspace/index.js";
import { useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();
let ctx: LoadContext;
beforeEach(async () => {
  ctx = {
    paths: fx.paths,
    keys: localKeys(evidenceLocations(fx.paths, fx.home)),
    now: () => new Date("2026-01-01T00:00:00.000Z"),
    writeAtomic: (path, data) => writeFileAtomic(path, data),
  };
});

/** A real ledger of a genesis, a stage entry and a list record, written by EvidenceLedger. */
async function written(): Promise<void> {
  await fx.ledger().transact(() => ({
    records: [
      { stage: 0, kind: "stage_enter", data: { name: "review" } },
      { stage: 0, kind: "list", data: { skills: ["a/one"] } },
    ],
    result: undefined,
  }));
}

describe("loadLedger", () => {
  it("no ledger yet: a new init id, its identity and public key written, and the genesis queued (nothing appended)", async () => {
    const loaded = await loadLedger(ctx, {});
    const identity = await ctx.keys.readIdentity();
    expect(identity).toMatchObject({
      version: 1,
      workspace: fx.paths.root,
      createdAt: "2026-01-01T00:00:00.000Z",
    });
    const signer = await ctx.keys.signerFor(fx.paths.root, identity!.initId);
    expect(loaded.pending).toEqual([
      {
        stage: 0,
        kind: "genesis",
        data: {
          workspace: fx.paths.root,
          initId: identity!.initId,
          publicKey: signer.publicKey,
          fingerprint: signer.fingerprint,
          home: fx.home,
          format: "skillgate-ledger/2",
        },
      },
    ]);
    expect(loaded).toMatchObject({ dirty: false, needsNewline: false, markBehind: true });
    expect(JSON.parse(readFileSync(`${fx.paths.skillgateDir}/ledger.pub`, "utf8"))).toEqual({
      fingerprint: signer.fingerprint,
      publicKey: signer.publicKey,
      workspace: fx.paths.root,
    });
    expect(existsSync(fx.paths.ledger)).toBe(false);
  });

  it("a written ledger loads its state, mark caught up, nothing queued; a clone is independent", async () => {
    await written();
    const loaded = await loadLedger(ctx, {});
    expect(loaded.pending).toEqual([]);
    expect(loaded.snapshot.warnings).toEqual([]);
    expect(loaded.snapshot.head).toMatchObject({ seq: 3, offset: (await readFile(fx.paths.ledger)).length });
    expect(loaded.snapshot.state.skills["a/one"]?.list).toBe(true);
    expect(loaded.markBehind).toBe(false);
    const copy = cloneLoaded(loaded);
    copy.snapshot.state.skills = {};
    expect(loaded.snapshot.state.skills["a/one"]?.list).toBe(true);
    expect(copy.signer).toBe(loaded.signer);
  });

  it("a torn last line is noted and queued as a quarantine that keeps the stage's evidence; the next append starts on a new line", async () => {
    await written();
    await appendFile(fx.paths.ledger, '{"v":2,"seq":4,"ki');
    const loaded = await loadLedger(ctx, {});
    expect(loaded.needsNewline).toBe(true);
    expect(loaded.dirty).toBe(true);
    expect(loaded.snapshot.warnings).toHaveLength(1);
    expect(loaded.snapshot.warnings[0]).toMatch(
      /^evidence ledger .*: .*\. The torn line was left in place and noted; no evidence was lost\.$/,
    );
    expect(loaded.pending).toMatchObject([{ kind: "quarantine", data: { reset: false, gaps: [] } }]);
    expect(loaded.snapshot.state.skills["a/one"]?.list).toBe(true);
  });

  it("a checkpoint signed by another key is not trusted: the state is rebuilt from the ledger, with a warning", async () => {
    await written();
    const honest = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    const forger = signerFromSeed(Buffer.alloc(32, 13));
    const state = {
      ...honest.state,
      identity: { ...honest.state.identity, publicKey: forger.publicKey },
      skills: { "a/one": { list: true, read: true, use: true, readRanges: [[1, 9]], totalLines: 9 } },
    };
    await writeFile(fx.paths.progress, checkpointBytes(forger, honest.ledger, state));
    const loaded = await loadLedger(ctx, {});
    expect(loaded.snapshot.warnings).toEqual([
      `the progress checkpoint ${fx.paths.progress} is signed by a key that is not this workspace's (forged); state was rebuilt from the signed ledger`,
    ]);
    expect(loaded.snapshot.state.skills["a/one"]).toMatchObject({ list: true, read: false, use: false });
  });

  it("a ledger cut short under its checkpoint is a rollback; without the head mark it is rebuilt from what remains, with a warning", async () => {
    await written();
    const progress = JSON.parse(await readFile(fx.paths.progress, "utf8"));
    const lines = (await readFile(fx.paths.ledger, "utf8")).split("\n");
    await writeFile(fx.paths.ledger, `${lines.slice(0, 2).join("\n")}\n`);
    expect(progress.ledger.seq).toBe(3);
    const loaded = await loadLedger(ctx, {}).catch((error: { code: string }) => error);
    // Records 1-2 remain, but the head mark outside the workspace already reached 3: a rollback.
    expect(loaded).toMatchObject({ code: "LEDGER_ROLLBACK" });
    await rm(ctx.keys.headFile);
    const rebuilt = await loadLedger(ctx, {});
    expect(rebuilt.snapshot.warnings).toEqual([
      `the evidence ledger ${fx.paths.ledger} is shorter than its signed checkpoint (truncated or replaced); state was rebuilt from the records that remain`,
    ]);
    expect(rebuilt.snapshot.head.seq).toBe(2);
    expect(rebuilt.snapshot.state.skills).toEqual({});
  });

  it.each<[string, () => Promise<void>, string, string]>([
    [
      "a folder where the ledger should be",
      async () => {
        await mkdir(fx.paths.ledger);
      },
      "LEDGER_TAMPERED",
      "the evidence ledger <LEDGER> is a folder, not a file; move it aside and retry (a new ledger is started)",
    ],
    [
      "an emptied ledger under a checkpoint",
      async () => {
        await written();
        await writeFile(fx.paths.ledger, "");
      },
      "LEDGER_TAMPERED",
      "the evidence ledger <LEDGER> is empty but the progress checkpoint <PROGRESS> records signed progress: the ledger was deleted or truncated. Nothing was changed. Restore ledger.jsonl from a backup, or move progress.json aside to start a new ledger (the stages must then be completed again).",
    ],
    [
      "a deleted ledger under a checkpoint",
      async () => {
        await written();
        await rm(fx.paths.ledger);
      },
      "LEDGER_TAMPERED",
      "the evidence ledger <LEDGER> is missing but the progress checkpoint <PROGRESS> records signed progress: the ledger was deleted or truncated. Nothing was changed. Restore ledger.jsonl from a backup, or move progress.json aside to start a new ledger (the stages must then be completed again).",
    ],
    [
      "a first line that is not a genesis record",
      async () => {
        await written();
        const lines = (await readFile(fx.paths.ledger, "utf8")).split("\n");
        await writeFile(fx.paths.ledger, lines.slice(1).join("\n"));
        await rm(fx.paths.progress);
      },
      "LEDGER_TAMPERED",
      "the first record of the evidence ledger <LEDGER> is not a readable genesis record, so it cannot be told which key signed it. Nothing was changed. Restore the file from a backup, or move ledger.jsonl and progress.json aside to start a new ledger.",
    ],
    [
      "a v1 (HMAC) ledger",
      async () => {
        await writeFile(
          fx.paths.ledger,
          `${JSON.stringify({ seq: 1, kind: "genesis", sig: "ab".repeat(32) })}\n`,
        );
      },
      "LEDGER_FORMAT_OLD",
      "the evidence ledger <LEDGER> was written by an older skillgate (HMAC-signed records, ledger v1), which this version does not sign or verify. Nothing was changed or discarded. To continue, move ledger.jsonl and progress.json aside (keep them as the old record) and run `skillgate init <ROOT>`: a new Ed25519-signed ledger starts, and the stages must be completed again.",
    ],
  ])("%s is refused, touching nothing", async (_name, arrange, code, message) => {
    await arrange();
    const ledgerBefore = await readFile(fx.paths.ledger).catch(() => null);
    const progressBefore = await readFile(fx.paths.progress).catch(() => null);
    await expect(loadLedger(ctx, {})).rejects.toMatchObject({
      code,
      message: message
        .replace("<LEDGER>", fx.paths.ledger)
        .replace("<PROGRESS>", fx.paths.progress)
        .replace("<ROOT>", fx.paths.root),
    });
    expect(await readFile(fx.paths.ledger).catch(() => null)).toEqual(ledgerBefore);
    expect(await readFile(fx.paths.progress).catch(() => null)).toEqual(progressBefore);
  });
});
