// Who may sign for a workspace: the key holder interface, its local implementation, and the identity check on load.
import { SkillgateError } from "../errors.js";
import type { StagedFile } from "../workspace/index.js";
import { type HeadMark, readHeadMark, stageHeadMark, writeHeadMark } from "./head-mark.js";
import { readIdentity, type WorkspaceIdentity, writeIdentity } from "./identity.js";
import { deriveSigner, loadMasterKey } from "./key.js";
import type { EvidenceLocations } from "./locations.js";
import type { LedgerSigner } from "./signer.js";
import type { LedgerIdentity } from "./state.js";

/** The secret side of the ledger. Authority mode can provide its own (another user's home, a socket). */
export interface LedgerKeys {
  /** The signer of init `initId` of `workspace` (deterministic: the same inputs give the same key). */
  signerFor(workspace: string, initId: string): Promise<LedgerSigner>;
  readIdentity(): Promise<WorkspaceIdentity | null>;
  writeIdentity(identity: WorkspaceIdentity): Promise<void>;
  /** The last ledger head recorded for this workspace (rollback detection), kept beside the identity. */
  readHead(): Promise<HeadMark | null>;
  writeHead(mark: HeadMark): Promise<void>;
  /** Optional two-step writeHead: the bytes synced now, the rename on commit (the group commit overlaps the sync). */
  stageHead?(mark: HeadMark): Promise<StagedFile>;
  /** Where the head is kept, for messages. */
  readonly headFile: string;
  /** Where the secret lives, for messages ("SKILLGATE_HOME /x (key /x/ledger.key)"). */
  readonly where: string;
  readonly home: string;
}

export function localKeys(locations: EvidenceLocations): LedgerKeys {
  let master: Promise<Buffer> | null = null;
  const signers = new Map<string, LedgerSigner>();
  return {
    home: locations.home,
    where: `skillgate home ${locations.home} (key ${locations.masterKeyFile})`,
    async signerFor(workspace, initId) {
      const id = `${workspace}\0${initId}`;
      let signer = signers.get(id);
      if (!signer) {
        master ??= loadMasterKey(locations.home).catch((error: unknown) => {
          master = null;
          throw error;
        });
        signer = deriveSigner(await master, workspace, initId);
        signers.set(id, signer);
      }
      return signer;
    },
    readIdentity: () => readIdentity(locations.identityFile),
    writeIdentity: (identity) => writeIdentity(locations.identityFile, identity),
    headFile: locations.headFile,
    readHead: () => readHeadMark(locations.headFile),
    writeHead: (mark) => writeHeadMark(locations.headFile, mark),
    stageHead: (mark) => stageHeadMark(locations.headFile, mark),
  };
}

/**
 * Decides whether the identity a ledger claims (genesis or last adopt) is this workspace's current init under this
 * key holder. Returns the signer to continue with, or throws a refusal that says what was expected and the fix.
 * Nothing on disk is changed except restoring a lost identity file that the key proves.
 */
export async function checkIdentity(
  claimed: LedgerIdentity,
  root: string,
  keys: LedgerKeys,
  options: { adopting?: boolean } = {},
): Promise<LedgerSigner> {
  const fix = `skillgate init ${root} --adopt`;
  const created = claimed.home ? ` (created with SKILLGATE_HOME=${claimed.home})` : "";
  if (claimed.workspace !== root && !options.adopting) {
    throw new SkillgateError(
      "LEDGER_KEY_MISMATCH",
      `The evidence ledger in ${root} belongs to workspace ${claimed.workspace}${created}: the workspace was moved or copied. Nothing was changed. If this is the same work, run \`${fix}\` to re-sign it for this path (recorded in the ledger); otherwise move .ucagent/skillgate/ledger.jsonl and progress.json aside to start a new ledger.`,
      {
        expected_workspace: root,
        ledger_workspace: claimed.workspace,
        fingerprint: claimed.fingerprint,
        fix,
      },
    );
  }
  const signer = await keys.signerFor(claimed.workspace, claimed.initId);
  if (signer.publicKey !== claimed.publicKey) {
    throw new SkillgateError(
      "LEDGER_KEY_MISMATCH",
      `The evidence ledger in ${root} was signed by key ${claimed.fingerprint}${created}, but ${keys.where} derives ${signer.fingerprint} for it: skillgate runs with another home or key than the one that created this workspace (HOME or SKILLGATE_HOME changed?). Nothing was changed or discarded. Set SKILLGATE_HOME to the home that created it${claimed.home ? ` (${claimed.home})` : ""} and retry.`,
      {
        expected_fingerprint: claimed.fingerprint,
        derived_fingerprint: signer.fingerprint,
        home: keys.home,
        ledger_home: claimed.home ?? null,
      },
    );
  }
  // Adopting a ledger of another path is the point; adopting this path's own still must not accept a replay.
  if (options.adopting && claimed.workspace !== root) return signer;
  const identity = await keys.readIdentity();
  if (identity === null) {
    // Our key proves the ledger is ours: the identity file alone was lost; put it back.
    await keys.writeIdentity({
      version: 1,
      workspace: root,
      initId: claimed.initId,
      createdAt: new Date().toISOString(),
      publicKey: claimed.publicKey,
      fingerprint: claimed.fingerprint,
    });
    return signer;
  }
  if (identity.initId !== claimed.initId) {
    throw new SkillgateError(
      "LEDGER_REPLAY",
      `The evidence ledger in ${root} comes from an earlier init of this workspace (init ${claimed.initId.slice(0, 8)}), but the current init is ${identity.initId.slice(0, 8)} (since ${identity.createdAt}): ledger.jsonl/progress.json were restored from before a fresh init, so their progress is refused as a replay. Nothing was changed. Move .ucagent/skillgate/ledger.jsonl and progress.json aside; skillgate then starts the current init's ledger.`,
      { ledger_init: claimed.initId, current_init: identity.initId },
    );
  }
  return signer;
}
