// What a scan rests on (runtime/skills/tree-record.ts): stat stamps that move on any write, rename or chmod, and the
// rule that a scan is indexable only when the tree had settled before it began.
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { KeyRecorder, SETTLE_MS, STAMP_FIELDS, stampInto } from "../../runtime/skills/tree-record.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

/** The six stamp numbers of one path. */
const stampOf = (path: string) => {
  const stamps = new Float64Array(STAMP_FIELDS);
  stampInto(stamps, 0, path);
  return [...stamps];
};

describe("stampInto", () => {
  it("writes dev, inode, mode, size, mtime, ctime at the slot and returns the newest time", () => {
    temp = tempRoot("skillgate-tree-record-");
    const file = temp.path("f");
    fs.writeFileSync(file, "abc");
    const stat = fs.statSync(file);
    const stamps = new Float64Array(STAMP_FIELDS * 2);
    expect(stampInto(stamps, 1, file)).toBe(Math.max(stat.mtimeMs, stat.ctimeMs));
    expect([...stamps.subarray(0, STAMP_FIELDS)]).toEqual(Array(STAMP_FIELDS).fill(0));
    expect([...stamps.subarray(STAMP_FIELDS)]).toEqual([
      stat.dev,
      stat.ino,
      stat.mode,
      3,
      stat.mtimeMs,
      stat.ctimeMs,
    ]);
    expect(stampInto(stamps, 0, temp.path("missing"))).toBeNull();
  });

  it("moves on a same-size rewrite with the old mtime put back, on chmod and on a replacement", () => {
    temp = tempRoot("skillgate-tree-record-");
    const file = temp.path("f");
    fs.writeFileSync(file, "abc");
    const before = stampOf(file);
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, "xyz");
    fs.utimesSync(file, atime, mtime);
    const rewritten = stampOf(file);
    expect(rewritten[5]).not.toBe(before[5]);
    fs.chmodSync(file, 0o600);
    expect(stampOf(file)[2]).not.toBe(rewritten[2]);
    fs.writeFileSync(temp.path("g"), "abc");
    fs.renameSync(temp.path("g"), file);
    expect(stampOf(file)[1]).not.toBe(before[1]);
  });
});

describe("KeyRecorder", () => {
  it("records paths in walk order with their stamps, growing past its first buffer", () => {
    temp = tempRoot("skillgate-tree-record-");
    const recorder = new KeyRecorder(Date.now() + 10 * SETTLE_MS);
    recorder.root(temp.dir);
    const files = Array.from({ length: 300 }, (_, index) => {
      const file = temp.path(`f${index}`);
      fs.writeFileSync(file, String(index));
      return file;
    });
    recorder.dir(temp.dir);
    for (const file of files) recorder.file(file);
    expect(recorder.paths).toEqual([temp.dir, ...files]);
    expect(recorder.stamps()).toHaveLength(301 * STAMP_FIELDS);
    expect([...recorder.stamps().subarray(300 * STAMP_FIELDS)]).toEqual(stampOf(files[299] as string));
    expect(recorder.indexable()).toBe(true);
  });

  it("is not indexable when a change is within SETTLE_MS of the start, a path is missing, no root was given or it was told volatile", () => {
    temp = tempRoot("skillgate-tree-record-");
    const file = temp.path("f");
    fs.writeFileSync(file, "x");
    const fresh = new KeyRecorder(Date.now());
    fresh.root(temp.dir);
    fresh.file(file);
    expect(fresh.indexable()).toBe(false);

    const settled = () => {
      const recorder = new KeyRecorder(Date.now() + 10 * SETTLE_MS);
      recorder.root(temp.dir);
      recorder.file(file);
      return recorder;
    };
    const missing = settled();
    missing.file(temp.path("gone"));
    expect(missing.indexable()).toBe(false);
    expect(missing.paths).toEqual([file]);
    const volatile = settled();
    volatile.volatile();
    expect(volatile.indexable()).toBe(false);
    const rootless = new KeyRecorder(Date.now() + 10 * SETTLE_MS);
    rootless.file(file);
    expect(rootless.indexable()).toBe(false);
    expect(settled().indexable()).toBe(true);
  });
});
