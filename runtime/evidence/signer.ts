// Ed25519 signing behind a small interface: a signer signs, anyone verifies with the raw public key.
import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from "node:crypto";

/** What the ledger needs from whoever holds the key (a local derived key, or an authority process). */
export interface LedgerSigner {
  /** Raw 32-byte public key, base64. */
  readonly publicKey: string;
  /** `ed25519:` + first 16 bytes of sha256(raw public key), hex. */
  readonly fingerprint: string;
  /** Ed25519 signature (base64) of `message`. */
  sign(message: string): string;
}

const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export function fingerprintOf(publicKey: string): string {
  return `ed25519:${createHash("sha256").update(Buffer.from(publicKey, "base64")).digest("hex").slice(0, 32)}`;
}

/** A signer from a 32-byte seed (the seed itself never leaves this object). */
export function signerFromSeed(seed: Buffer): LedgerSigner {
  if (seed.length !== 32) throw new Error("an Ed25519 seed is 32 bytes");
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  const publicKey = Buffer.from(spki.subarray(spki.length - 32)).toString("base64");
  return {
    publicKey,
    fingerprint: fingerprintOf(publicKey),
    sign: (message) => sign(null, Buffer.from(message, "utf8"), key).toString("base64"),
  };
}

const publicKeys = new Map<string, KeyObject | null>();

function publicKeyObject(publicKey: string): KeyObject | null {
  let key = publicKeys.get(publicKey);
  if (key === undefined) {
    const raw = Buffer.from(publicKey, "base64");
    key =
      raw.length === 32
        ? createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: "der", type: "spki" })
        : null;
    if (publicKeys.size > 64) publicKeys.clear();
    publicKeys.set(publicKey, key);
  }
  return key;
}

/** True when `signature` (base64) is a valid Ed25519 signature of `message` under the raw public key. */
export function verifySignature(publicKey: string, message: string, signature: string): boolean {
  const key = publicKeyObject(publicKey);
  if (!key || typeof signature !== "string") return false;
  const sig = Buffer.from(signature, "base64");
  if (sig.length !== 64) return false;
  try {
    return verify(null, Buffer.from(message, "utf8"), key, sig);
  } catch {
    return false;
  }
}
