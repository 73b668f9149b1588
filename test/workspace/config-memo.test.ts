// The config memo's file store (runtime/workspace/config-memo.ts): entries under <home>/cache/config, private modes,
// atomic replacement, a missing entry read as null.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { configMemoIn } from "../../runtime/workspace/config-memo.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

describe("configMemoIn", () => {
  it("reads null for a slot never written, then what was written, under <home>/cache/config", async () => {
    temp = tempRoot("skillgate-config-memo-");
    const memo = configMemoIn(temp.dir, "build-1");
    expect(memo.build).toBe("build-1");
    expect(await memo.read("abc")).toBeNull();
    await memo.write("abc", '{"x":1}');
    expect(await memo.read("abc")).toBe('{"x":1}');
    expect(readFileSync(temp.path("cache", "config", "abc.json"), "utf8")).toBe('{"x":1}');
  });

  it("keeps the folder 0700 and the entry 0600 (it sits in the user's home, not a workspace)", async () => {
    temp = tempRoot("skillgate-config-memo-");
    const memo = configMemoIn(temp.dir, "b");
    await memo.write("slot", "one");
    expect(statSync(temp.path("cache", "config")).mode & 0o777).toBe(0o700);
    expect(statSync(temp.path("cache", "config", "slot.json")).mode & 0o777).toBe(0o600);
  });

  it("replaces an entry atomically: 20 parallel writes leave one whole entry and no temp file", async () => {
    temp = tempRoot("skillgate-config-memo-");
    const memo = configMemoIn(temp.dir, "b");
    const texts = Array.from({ length: 20 }, (_, index) =>
      JSON.stringify({ index, pad: "x".repeat(10_000) }),
    );
    await Promise.all(texts.map((text) => memo.write("slot", text)));
    expect(texts).toContain(await memo.read("slot"));
    expect(readdirSync(temp.path("cache", "config"))).toEqual(["slot.json"]);
  });
});
