// Small state files read synchronously (runtime/contracts/read-small.ts, hash.ts sha256FileOfStat): readFile's bytes and errors, a FIFO, socket or device refused.
import { execFileSync } from "node:child_process";
import { chmodSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readSmallFile, SMALL_FILE_LIMIT } from "../../runtime/contracts/read-small.js";
import type { SkillgateError } from "../../runtime/errors.js";
import { sha256Bytes, sha256File, sha256FileOfStat } from "../../runtime/workspace/hash.js";
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

  /** readSmallFile's refusal of `path`, a `kind`: code, full message and details. */
  const refusal = (path: string, kind: string) => ({
    code: "NOT_REGULAR_FILE",
    message: `${path} is a ${kind}, not a regular file: skillgate reads its state and config only from regular files (reading anything else could block or never end); fix: replace it with the regular file it should be, or remove it`,
    details: { path, kind },
  });
  const rejection = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: SkillgateError) => ({ code: error.code, message: error.message, details: error.details }),
    );

  it("refuses a FIFO without waiting for a writer", async () => {
    temp = tempRoot("skillgate-read-small-");
    const fifo = temp.path("progress.json");
    execFileSync("mkfifo", [fifo]);
    expect(await rejection(readSmallFile(fifo))).toEqual(refusal(fifo, "FIFO (named pipe)"));
  });

  it("refuses a character device, also through a symlink: /dev/zero is not read forever", async () => {
    temp = tempRoot("skillgate-read-small-");
    for (const device of ["/dev/zero", "/dev/null"]) {
      const link = temp.path(`${device.slice(5)}.json`);
      symlinkSync(device, link);
      expect(await rejection(readSmallFile(link))).toEqual(refusal(link, "character device"));
    }
  });

  it("refuses a unix socket (which open(2) itself refuses with ENXIO)", async () => {
    temp = tempRoot("skillgate-read-small-");
    const path = temp.path("ledger.key");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(await rejection(readSmallFile(path))).toEqual(refusal(path, "socket"));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("refuses a regular file over SMALL_FILE_LIMIT from its size, and reads one at the limit", async () => {
    temp = tempRoot("skillgate-read-small-");
    const huge = temp.path("manifest.json");
    execFileSync("truncate", ["-s", String(SMALL_FILE_LIMIT + 1), huge]);
    expect(await rejection(readSmallFile(huge))).toEqual({
      code: "FILE_TOO_LARGE",
      message: `${huge} is ${SMALL_FILE_LIMIT + 1} bytes, over the 67108864 bytes skillgate reads from a state or config file (none is near that size when skillgate wrote it); fix: replace it with the file it should be, or remove it`,
      details: { path: huge, size: SMALL_FILE_LIMIT + 1, limit: SMALL_FILE_LIMIT },
    });
    execFileSync("truncate", ["-s", String(SMALL_FILE_LIMIT), huge]);
    expect((await readSmallFile(huge)).length).toBe(SMALL_FILE_LIMIT);
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
