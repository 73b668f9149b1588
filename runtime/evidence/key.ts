// The master secret (32 random bytes at <home>/ledger.key, 0600) and the per-workspace, per-init Ed25519 keys derived from it.
import { createHmac, randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { skillgateHome } from "../config/index.js";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { readSmallFile, writeFileAtomic } from "../workspace/index.js";
import { hmacHex } from "./canonical.js";
import { type LedgerSigner, signerFromSeed } from "./signer.js";

export function ledgerKeyFile(home: string = skillgateHome()): string {
  return join(home, "ledger.key");
}

/**
 * Reads the master key, creating it on first use. Creation never replaces a key (the one writer's `overwrite: false`
 * links its temp file into place), so two processes racing never end up signing with different keys.
 */
export async function loadMasterKey(home: string = skillgateHome()): Promise<Buffer> {
  const file = ledgerKeyFile(home);
  const existing = await readKey(file);
  if (existing) return existing;
  await mkdir(home, { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${randomBytes(32).toString("hex")}\n`, {
    mode: 0o600,
    overwrite: false,
  }).catch((error: unknown) => {
    if (!(error instanceof SkillgateError && error.code === "FILE_EXISTS")) throw error;
  });
  const created = await readKey(file);
  if (!created) {
    throw new SkillgateError(
      "LEDGER_TAMPERED",
      `ledger key ${file} is empty or not 64 hex characters; delete it so skillgate creates a new one (recorded evidence will have to be collected again)`,
      { file },
    );
  }
  return created;
}

async function readKey(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readSmallFile(file);
  } catch (error) {
    if (isSkillgateError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "EACCES" || code === "EPERM")
      throw new SkillgateError(
        "PERMISSION_DENIED",
        `cannot read the ledger key ${file} (${code}): it belongs to another user. Run skillgate as the user that owns it, or point SKILLGATE_HOME at your own skillgate home.`,
        { file },
      );
    throw error;
  }
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) {
    if (hex.length === 0) return null;
    throw new SkillgateError(
      "LEDGER_TAMPERED",
      `ledger key ${file} is not 64 hex characters; delete it so skillgate creates a new one (recorded evidence will have to be collected again)`,
      { file },
    );
  }
  return Buffer.from(hex, "hex");
}

/** Per-workspace key: records copied from another workspace of the same user do not verify here. */
export function workspaceKey(master: Buffer, workspaceRoot: string): Buffer {
  return Buffer.from(hmacHex(master, `skillgate-ledger:${workspaceRoot}`), "hex");
}

/**
 * The Ed25519 key of one init of one workspace: the seed mixes the master secret, the workspace path and the init's
 * random id, so a ledger from an earlier init (or another workspace) never verifies under the current key.
 */
export function deriveSigner(master: Buffer, workspaceRoot: string, initId: string): LedgerSigner {
  const seed = createHmac("sha256", master)
    .update(`skillgate-ed25519:v2:${workspaceRoot}\0${initId}`)
    .digest();
  return signerFromSeed(seed);
}
