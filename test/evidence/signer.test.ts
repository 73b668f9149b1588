// Ed25519 signing (signer.ts): RFC 8032 keys and signatures, and every malformed key or signature verifies as false, never throws.
import { describe, expect, it } from "vitest";
import { fingerprintOf, signerFromSeed, verifySignature } from "../../runtime/evidence/index.js";

// RFC 8032 section 7.1, TEST 1 (empty message) and TEST 2 (one byte 0x72, "r").
const RFC_SEED = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex");
const RFC_PUBLIC = Buffer.from("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "hex");
const RFC_SIG_EMPTY =
  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";
const SEED2 = Buffer.from("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "hex");
const PUBLIC2 = Buffer.from("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "hex");
const SIG2 =
  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00";

describe("signerFromSeed", () => {
  it("derives the RFC 8032 public key and signs exactly as the RFC's test vectors", () => {
    const signer = signerFromSeed(RFC_SEED);
    expect(signer.publicKey).toBe(RFC_PUBLIC.toString("base64"));
    expect(Buffer.from(signer.sign(""), "base64").toString("hex")).toBe(RFC_SIG_EMPTY);
    const second = signerFromSeed(SEED2);
    expect(second.publicKey).toBe(PUBLIC2.toString("base64"));
    expect(Buffer.from(second.sign("r"), "base64").toString("hex")).toBe(SIG2);
  });

  it("the fingerprint is ed25519: and the first 16 bytes of sha256(raw public key)", () => {
    const signer = signerFromSeed(RFC_SEED);
    expect(signer.fingerprint).toBe(fingerprintOf(signer.publicKey));
    expect(signer.fingerprint).toMatch(/^ed25519:[0-9a-f]{32}$/);
    expect(fingerprintOf(signerFromSeed(SEED2).publicKey)).not.toBe(signer.fingerprint);
  });

  it.each([0, 31, 33, 64])("refuses a %i-byte seed", (length) => {
    expect(() => signerFromSeed(Buffer.alloc(length, 1))).toThrow("an Ed25519 seed is 32 bytes");
  });
});

describe("verifySignature", () => {
  const signer = signerFromSeed(Buffer.alloc(32, 3));
  const message = "skillgate-record:abc";
  const signature = signer.sign(message);

  it("accepts the signature of the message under its key, and the RFC's own signature", () => {
    expect(verifySignature(signer.publicKey, message, signature)).toBe(true);
    expect(
      verifySignature(PUBLIC2.toString("base64"), "r", Buffer.from(SIG2, "hex").toString("base64")),
    ).toBe(true);
  });

  it.each([
    ["another message", () => verifySignature(signer.publicKey, `${message}x`, signature)],
    ["another key", () => verifySignature(signerFromSeed(Buffer.alloc(32, 4)).publicKey, message, signature)],
    [
      "one flipped bit of the signature",
      () => {
        const bytes = Buffer.from(signature, "base64");
        bytes[10]! ^= 1;
        return verifySignature(signer.publicKey, message, bytes.toString("base64"));
      },
    ],
    ["a truncated signature", () => verifySignature(signer.publicKey, message, signature.slice(0, 40))],
    ["an empty signature", () => verifySignature(signer.publicKey, message, "")],
    [
      "a signature that is not a string",
      () => verifySignature(signer.publicKey, message, 7 as unknown as string),
    ],
    [
      "a public key of 31 bytes",
      () => verifySignature(Buffer.alloc(31).toString("base64"), message, signature),
    ],
    ["an empty public key", () => verifySignature("", message, signature)],
    ["the HMAC hex of a v1 record", () => verifySignature(signer.publicKey, message, "a".repeat(64))],
  ])("rejects %s (false, no throw)", (_name, check) => {
    expect(check()).toBe(false);
  });
});
