// Canonical JSON and its digests (canonical.ts): the bytes signed never depend on key order, and the hashes are the standard ones.
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, hmacHex, sha256Hex } from "../../runtime/evidence/index.js";

describe("canonicalJson", () => {
  it.each([
    ["keys sorted at every level", { b: 1, a: { d: [3, 1], c: null } }, '{"a":{"c":null,"d":[3,1]},"b":1}'],
    ["arrays keep their order, objects inside them sorted", [{ y: 1, x: 2 }, 0], '[{"x":2,"y":1},0]'],
    ["undefined members are left out, null kept", { a: undefined, b: null }, '{"b":null}'],
    ["scalars as JSON", 'a"b', '"a\\"b"'],
    ["numbers as JSON", 1.5, "1.5"],
    ["unicode keys by code unit", { é: 1, z: 2, A: 3 }, '{"A":3,"z":2,"é":1}'],
  ])("%s", (_name, value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it("two objects with the same members in another order give the same bytes and the same digest", () => {
    const one = { kind: "list", data: { skills: ["a", "b"], stage: 0 }, seq: 3 };
    const two = { seq: 3, data: { stage: 0, skills: ["a", "b"] }, kind: "list" };
    expect(canonicalJson(one)).toBe(canonicalJson(two));
    expect(sha256Hex(canonicalJson(one))).toBe(sha256Hex(canonicalJson(two)));
    expect(canonicalJson({ ...one, data: { skills: ["b", "a"], stage: 0 } })).not.toBe(canonicalJson(one));
  });
});

describe("sha256Hex and hmacHex", () => {
  it("are sha256 and HMAC-SHA256 in lowercase hex, over strings and bytes alike", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex(Buffer.from("abc"))).toBe(sha256Hex("abc"));
    const key = Buffer.alloc(32, 7);
    expect(hmacHex(key, "msg")).toBe(createHmac("sha256", key).update("msg").digest("hex"));
    expect(hmacHex(Buffer.alloc(32, 8), "msg")).not.toBe(hmacHex(key, "msg"));
    expect(sha256Hex("")).toBe(createHash("sha256").digest("hex"));
  });
});
