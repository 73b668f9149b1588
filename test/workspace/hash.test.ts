// SHA-256 of files and bytes (runtime/workspace/hash.ts): streamed files hash like their bytes, at any size.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Bytes, sha256File } from "../../runtime/workspace/hash.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

describe("sha256", () => {
  it("hashes bytes and strings as node:crypto does (the empty input included)", () => {
    expect(sha256Bytes("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Bytes("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Bytes(new Uint8Array([0xff, 0x00]))).toBe(
      createHash("sha256")
        .update(Buffer.from([0xff, 0]))
        .digest("hex"),
    );
  });

  it("a file streamed in many chunks hashes like its bytes; an empty file too", async () => {
    temp = tempRoot("skillgate-hash-");
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let index = 0; index < big.length; index++) big[index] = (index * 7) & 0xff;
    writeFileSync(temp.path("big"), big);
    writeFileSync(temp.path("empty"), "");
    expect(await sha256File(temp.path("big"))).toBe(sha256Bytes(big));
    expect(await sha256File(temp.path("empty"))).toBe(sha256Bytes(""));
  });

  it("a missing file rejects with the fs error instead of hashing nothing", async () => {
    temp = tempRoot("skillgate-hash-");
    await expect(sha256File(join(temp.dir, "none"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(sha256File(temp.dir)).rejects.toMatchObject({ code: "EISDIR" });
  });
});
