// Loading the ledger: checkpoint, then verify and fold the tail; identity, replay and rollback refusals; a new ledger's genesis.
import { stat } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { type BadLine, foldLines, type Head, splitLedger } from "./fold.js";
import { rollbackError, rollbackVerdict } from "./head-mark.js";
import { newInitId } from "./identity.js";
import { checkIdentity, type LedgerKeys } from "./keys.js";
import { anchorMatches, readCheckpoint, readRange, zeroHead } from "./ledger-files.js";
import { parseLine, type UnsignedRecord } from "./record.js";
import type { LedgerSigner } from "./signer.js";
import { type EvidenceState, emptyState, type LedgerIdentity } from "./state.js";

export interface LedgerSnapshot {
  state: EvidenceState;
  head: Head;
  /** Problems found while loading (tampering, torn writes); the affected evidence was not applied. */
  warnings: string[];
}

export type LoadedLedger = {
  snapshot: LedgerSnapshot;
  dirty: boolean;
  checkpoint: Head;
  signer: LedgerSigner | null;
  /** Records the load itself must append first (genesis of a new ledger, a quarantine note). */
  pending: UnsignedRecord[];
  /** The file does not end with a newline (torn last line): appends start with one. */
  needsNewline: boolean;
  /** The head mark outside the workspace is missing or behind this ledger (first run, or a crash after an append). */
  markBehind: boolean;
  /** Records were appended without fsync (a deferred commit): the next synced commit syncs the file first. */
  unsynced: boolean;
};

export interface LoadContext {
  paths: WorkspacePaths;
  keys: LedgerKeys;
  now: () => Date;
  writeAtomic: (path: string, data: string) => Promise<void>;
}

/** Loads the ledger from its checkpoint, verifying every record after it; refuses (touching nothing) what is not ours. */
export async function loadLedger(ctx: LoadContext, options: { adopting?: boolean }): Promise<LoadedLedger> {
  const info = await stat(ctx.paths.ledger).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (info?.isDirectory())
    throw new SkillgateError(
      "LEDGER_TAMPERED",
      `the evidence ledger ${ctx.paths.ledger} is a folder, not a file; move it aside and retry (a new ledger is started)`,
      { ledger: ctx.paths.ledger },
    );
  const size = info?.size ?? 0;
  if (size === 0) {
    const progress = await stat(ctx.paths.progress).catch(() => null);
    if (progress && progress.size > 0)
      throw new SkillgateError(
        "LEDGER_TAMPERED",
        `the evidence ledger ${ctx.paths.ledger} is ${info ? "empty" : "missing"} but the progress checkpoint ${ctx.paths.progress} records signed progress: the ledger was deleted or truncated. Nothing was changed. Restore ledger.jsonl from a backup, or move progress.json aside to start a new ledger (the stages must then be completed again).`,
        { ledger: ctx.paths.ledger, progress: ctx.paths.progress },
      );
    return freshLedger(ctx);
  }
  const warnings: string[] = [];
  let start = await readCheckpoint(ctx.paths.progress, warnings);
  if (start) {
    const claimed = start.state.identity!;
    const derived = await ctx.keys.signerFor(claimed.workspace, claimed.initId).catch(() => null);
    if (derived?.publicKey !== claimed.publicKey) {
      warnings.push(
        `the progress checkpoint ${ctx.paths.progress} is signed by a key that is not this workspace's (forged); state was rebuilt from the signed ledger`,
      );
      start = null;
    }
  }
  if (start && start.ledger.offset > size) {
    warnings.push(
      `the evidence ledger ${ctx.paths.ledger} is shorter than its signed checkpoint (truncated or replaced); state was rebuilt from the records that remain`,
    );
    start = null;
  }
  if (start && !(await anchorMatches(ctx.paths.ledger, start.ledger))) {
    warnings.push(
      `the evidence ledger ${ctx.paths.ledger} no longer matches its signed checkpoint (rewritten); state was rebuilt from the records that verify`,
    );
    start = null;
  }
  const from = start?.ledger ?? zeroHead();
  const bytes = await readRange(ctx.paths.ledger, from.offset, size);
  const lines = splitLedger(bytes, from.offset);
  if (!start) {
    const first = lines[0] ? parseLine(lines[0].text) : null;
    if (first && !first.ok && first.legacy) throw legacyRefusal(ctx.paths);
    if (!first?.ok || first.record.kind !== "genesis")
      throw new SkillgateError(
        "LEDGER_TAMPERED",
        `the first record of the evidence ledger ${ctx.paths.ledger} is not a readable genesis record, so it cannot be told which key signed it. Nothing was changed. Restore the file from a backup, or move ledger.jsonl and progress.json aside to start a new ledger.`,
        { ledger: ctx.paths.ledger },
      );
  }
  const mark = await ctx.keys.readHead();
  let hashAtMark = mark && mark.seq === from.seq ? from.hash : null;
  const fold = foldLines(
    lines,
    { state: start?.state ?? emptyState(), head: from },
    {
      onRecord: (record) => {
        if (record.seq === mark?.seq) hashAtMark = record.hash;
      },
    },
  );
  const identity = fold.state.identity;
  if (!identity)
    throw new SkillgateError(
      "LEDGER_TAMPERED",
      `the evidence ledger ${ctx.paths.ledger} has no valid genesis record`,
      {},
    );
  const signer = await checkIdentity(identity, ctx.paths.root, ctx.keys, options);
  const maxSeq = Math.max(fold.head.seq, ...fold.bad.map((b) => b.seq ?? 0));
  const rollback = rollbackVerdict(mark, identity.initId, { head: fold.head, maxSeq, hashAtMark });
  if (!rollback.ok)
    throw rollbackError(rollback, fold.head, {
      root: ctx.paths.root,
      ledger: ctx.paths.ledger,
      headFile: ctx.keys.headFile,
    });
  const pending: UnsignedRecord[] = [];
  const { bad, gaps } = fold.unaccounted;
  if (bad.length > 0 || gaps.length > 0) {
    warnings.push(describeQuarantine(ctx.paths.ledger, bad, gaps));
    pending.push({
      stage: fold.state.stageIndex,
      kind: "quarantine",
      data: {
        lines: bad.map((b) => b.sha256),
        offsets: bad.map((b) => b.offset),
        reasons: [
          ...bad.map((b) => b.reason),
          ...gaps.map(([a, b]) => `records ${a}-${b} are missing`),
        ].slice(0, 20),
        gaps: gaps.map(([a, b]) => `${a}-${b}`),
        reset: !bad.every((b) => b.torn) || gaps.length > 0,
      },
    });
  }
  const lastByte = size > 0 ? (await readRange(ctx.paths.ledger, size - 1, size))[0] : 10;
  return {
    snapshot: { state: fold.state, head: { ...fold.head, offset: size }, warnings },
    dirty: warnings.length > 0,
    checkpoint: start?.ledger ?? zeroHead(),
    signer,
    pending,
    needsNewline: lastByte !== 10,
    markBehind: rollback.ok && rollback.advance,
    unsynced: false,
  };
}

/** A new ledger: a new init id for this workspace (an older ledger put back later is a replay) and its genesis. */
export async function freshLedger(ctx: LoadContext): Promise<LoadedLedger> {
  const { identity, signer } = await newIdentity(ctx);
  await recordIdentity(ctx, identity);
  return {
    snapshot: { state: emptyState(), head: zeroHead(), warnings: [] },
    dirty: false,
    checkpoint: zeroHead(),
    signer,
    pending: [{ stage: 0, kind: "genesis", data: { ...identity, format: "skillgate-ledger/2" } }],
    needsNewline: false,
    markBehind: true,
    unsynced: false,
  };
}

/** A new init id for this workspace, its signer and the identity naming them (nothing written yet). */
export async function newIdentity(
  ctx: LoadContext,
): Promise<{ identity: LedgerIdentity; signer: LedgerSigner }> {
  const initId = newInitId();
  const signer = await ctx.keys.signerFor(ctx.paths.root, initId);
  const identity: LedgerIdentity = {
    workspace: ctx.paths.root,
    initId,
    publicKey: signer.publicKey,
    fingerprint: signer.fingerprint,
    home: ctx.keys.home,
  };
  return { identity, signer };
}

/** Writes `identity` to the home's identity file and the workspace's public key file. */
export async function recordIdentity(ctx: LoadContext, identity: LedgerIdentity): Promise<void> {
  await ctx.keys.writeIdentity({ version: 1, ...identity, createdAt: ctx.now().toISOString() });
  await writePublicKey(ctx, identity);
}

export async function writePublicKey(ctx: LoadContext, identity: LedgerIdentity): Promise<void> {
  const text = `${JSON.stringify({ fingerprint: identity.fingerprint, publicKey: identity.publicKey, workspace: identity.workspace }, null, 2)}\n`;
  await ctx.writeAtomic(`${ctx.paths.skillgateDir}/ledger.pub`, text).catch(() => undefined);
}

function legacyRefusal(paths: Pick<WorkspacePaths, "ledger" | "root">): SkillgateError {
  return new SkillgateError(
    "LEDGER_FORMAT_OLD",
    `the evidence ledger ${paths.ledger} was written by an older skillgate (HMAC-signed records, ledger v1), which this version does not sign or verify. Nothing was changed or discarded. To continue, move ledger.jsonl and progress.json aside (keep them as the old record) and run \`skillgate init ${paths.root}\`: a new Ed25519-signed ledger starts, and the stages must be completed again.`,
    { ledger: paths.ledger },
  );
}

/** A copy that callers may mutate; the signer is shared (it holds no state). */
export function cloneLoaded(loaded: LoadedLedger): LoadedLedger {
  return {
    ...loaded,
    snapshot: structuredClone(loaded.snapshot),
    checkpoint: { ...loaded.checkpoint },
    pending: structuredClone(loaded.pending),
  };
}

function describeQuarantine(ledger: string, bad: BadLine[], gaps: Array<[number, number]>): string {
  const parts = [
    ...bad.map((b) => (b.seq !== null ? b.reason : `the line at byte ${b.offset}: ${b.reason}`)),
    ...gaps.map(([a, b]) => (a === b ? `record ${a} is missing` : `records ${a}-${b} are missing`)),
  ];
  const onlyTorn = gaps.length === 0 && bad.every((b) => b.torn);
  return `evidence ledger ${ledger}: ${parts.join("; ")}. ${
    onlyTorn
      ? "The torn line was left in place and noted; no evidence was lost."
      : "Those lines were left in place, not applied, and noted in a signed quarantine record; the evidence of the current stage must be collected again (ListSkill, ReadTextFile, RunSkillScript, Check)."
  }`;
}
