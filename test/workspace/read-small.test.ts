// Small state files read synchronously (runtime/workspace/read-small.ts, hash.ts sha256FileOfStat): the same bytes and errors as the stream, a FIFO never read synchronously.
import { execFileSync } from "node:child_process";
import { chmodSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Bytes, sha256File, sha256FileOfStat } from "../../runtime/workspace/hash.js";
import { readSmallFile } from "../../runtime/workspace/read-small.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

/** Rejection code of a promise (or null when it resolved). */
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: NodeJS.ErrnoException) => error.code,
  );

describe("readSmallFile", () => {
  it("reads a regular file as readFile does (utf8, empty included)", async () => {
    temp = tempRoot("skillgate-read-small-");
    writeFileSync(temp.path("a.json"), '{"é": 1}\n');
    writeFileSync(temp.path("empty"), "");
    expect(await readSmallFile(temp.path("a.json"))).toBe(await readFile(temp.path("a.json"), "utf8"));
    expect(await readSmallFile(temp.path("empty"))).toBe("");
  });

  it("rejects with readFile's codes: missing, a folder, unreadable", async () => {
    temp = tempRoot("skillgate-read-small-");
    for (const path of [temp.path("none"), temp.dir])
      expect(await codeOf(readSmallFile(path))).toBe(await codeOf(readFile(path, "utf8")));
    expect(await codeOf(readSmallFile(temp.path("none")))).toBe("ENOENT");
    expect(await codeOf(readSmallFile(temp.dir))).toBe("EISDIR");
    if (process.getuid?.() !== 0) {
      writeFileSync(temp.path("secret"), "x");
      chmodSync(temp.path("secret"), 0);
      expect(await codeOf(readSmallFile(temp.path("secret")))).toBe("EACCES");
    }
  });

  it("a FIFO goes through the thread pool: the event loop keeps running while nobody writes it", async () => {
    temp = tempRoot("skillgate-read-small-");
    const fifo = temp.path("fifo");
    execFileSync("mkfifo", [fifo]);
    const read = readSmallFile(fifo);
    // Reached only if the read above did not block the main thread.
    const writer = await open(fifo, "w");
    await writer.write("from the writer");
    await writer.close();
    expect(await read).toBe("from the writer");
  });
});

describe("sha256FileOfStat", () => {
  it("hashes small and large files like the stream, and rejects as it does", async () => {
    temp = tempRoot("skillgate-read-small-");
    const big = Buffer.alloc(600 * 1024);
    for (let index = 0; index < big.length; index++) big[index] = (index * 13) & 0xff;
    writeFileSync(temp.path("big"), big);
    writeFileSync(temp.path("small"), "print('ok')\n");
    writeFileSync(temp.path("empty"), "");
    for (const name of ["big", "small", "empty"]) {
      const path = temp.path(name);
      expect(await sha256FileOfStat(path, statSync(path, { bigint: true }))).toBe(await sha256File(path));
    }
    expect(await sha256FileOfStat(temp.path("small"), statSync(temp.path("small")))).toBe(
      sha256Bytes("print('ok')\n"),
    );
    expect(await codeOf(sha256FileOfStat(temp.dir, statSync(temp.dir)))).toBe("EISDIR");
  });

  it("decides by the opened file, not the caller's stat: a small file swapped for a FIFO or a big file is streamed", async () => {
    temp = tempRoot("skillgate-read-small-");
    const path = temp.path("script.py");
    writeFileSync(path, "print('ok')\n");
    const stale = statSync(path);
    rmSync(path);
    execFileSync("mkfifo", [path]);
    const hashed = sha256FileOfStat(path, stale);
    // Reached only if the hash above did not block the main thread on the FIFO.
    const writer = await open(path, "w");
    await writer.write("from the writer");
    await writer.close();
    expect(await hashed).toBe(sha256Bytes("from the writer"));
    rmSync(path);
    const big = Buffer.alloc(300 * 1024, 7);
    writeFileSync(path, big);
    expect(await sha256FileOfStat(path, stale)).toBe(sha256Bytes(big));
  });
});
