// Adopting a ledger moved or copied from another path of this home: a new init id and key, countersigned over the old head, recorded as an `adopt` record.
import { SkillgateError } from "../errors.js";
import { adoptCountersignMessage } from "./fold.js";
import type { LedgerKeys } from "./keys.js";
import { type CommitDeps, SealedBatch, writeSealed } from "./ledger-commit.js";
import {
  type LedgerSnapshot,
  type LoadContext,
  type LoadedLedger,
  newIdentity,
  recordIdentity,
} from "./ledger-load.js";
import type { LedgerIdentity } from "./state.js";

export interface AdoptResult {
  from: LedgerIdentity;
  to: LedgerIdentity;
  snapshot: LedgerSnapshot;
}

/**
 * Re-signs `loaded` (loaded with `adopting`, under the workspace lock) for `ctx.paths.root`: appends the adopt record
 * with its pending ones, then writes the new identity and public key. The caller holds the lock throughout.
 */
export async function adoptLoaded(
  loaded: LoadedLedger,
  ctx: LoadContext & { keys: LedgerKeys },
  commitDeps: CommitDeps,
): Promise<AdoptResult> {
  const from = loaded.snapshot.state.identity;
  if (!from || !loaded.signer) throw new SkillgateError("LEDGER_TAMPERED", "there is no ledger to adopt", {});
  const { identity: to, signer: next } = await newIdentity(ctx);
  const data = {
    ...to,
    from: { workspace: from.workspace, initId: from.initId, fingerprint: from.fingerprint },
    countersig: next.sign(adoptCountersignMessage(loaded.snapshot.head.hash, next.publicKey)),
  };
  const batch = new SealedBatch(loaded, commitDeps);
  await batch.seal([...loaded.pending, { stage: loaded.snapshot.state.stageIndex, kind: "adopt", data }]);
  await writeSealed(commitDeps, batch);
  await recordIdentity(ctx, to);
  return { from, to, snapshot: loaded.snapshot };
}
