// Two-step state-file replacement (runtime/workspace/staged-write.ts): the target keeps its old bytes until commit,
// abort leaves it untouched, no symlink is written through, and a settled handle does nothing twice.
import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { stageFileAtomic } from "../../runtime/workspace/staged-write.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const tempFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".tmp"));

describe("stageFileAtomic", () => {
  it("writes a synced temp file now; the target changes only on commit, with exactly the mode asked", async () => {
    temp = tempRoot("skillgate-staged-", { realpath: true });
    const file = temp.path("head.json");
    writeFileSync(file, "old", { mode: 0o644 });
    const staged = await stageFileAtomic(file, "new", { mode: 0o600 });
    expect(readFileSync(file, "utf8")).toBe("old");
    const [pending] = tempFiles(temp.dir);
    expect(pending).toMatch(/^\.head\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
    expect(readFileSync(temp.path(pending as string), "utf8")).toBe("new");
    await staged.commit();
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tempFiles(temp.dir)).toEqual([]);
    await staged.commit();
    await staged.abort();
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("abort removes the temp file and leaves the target (or its absence) as it was", async () => {
    temp = tempRoot("skillgate-staged-", { realpath: true });
    const staged = await stageFileAtomic(temp.path("fresh.json"), new Uint8Array([1, 2, 3]));
    await staged.abort();
    expect(readdirSync(temp.dir)).toEqual([]);
    await staged.commit();
    expect(readdirSync(temp.dir)).toEqual([]);
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    temp = tempRoot("skillgate-staged-", { realpath: true });
    writeFileSync(temp.path("outside"), "keep");
    symlinkSync(temp.path("outside"), temp.path("state"));
    const staged = await stageFileAtomic(temp.path("state"), "mine");
    await staged.commit();
    expect(readFileSync(temp.path("outside"), "utf8")).toBe("keep");
    expect(lstatSync(temp.path("state")).isSymbolicLink()).toBe(false);
    expect(readFileSync(temp.path("state"), "utf8")).toBe("mine");
  });

  it("a missing folder fails with FILE_NOT_FOUND naming the file, leaving nothing behind", async () => {
    temp = tempRoot("skillgate-staged-", { realpath: true });
    const file = temp.path("missing", "f");
    await expect(stageFileAtomic(file, "x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
      message: `Cannot write ${file}: it does not exist.`,
    });
    expect(readdirSync(temp.dir)).toEqual([]);
  });
});
