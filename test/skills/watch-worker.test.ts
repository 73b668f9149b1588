// The folder watcher thread (runtime/skills/watch-worker.ts): a change that completed before changes() is always in its
// answer, with no event-loop turn in between; a deleted or replaced folder is reported for a re-walk; closed means null.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FolderWatcher, fenceMark, startFolderWatcher } from "../../runtime/skills/watch-worker.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let watcher: FolderWatcher | null = null;
afterEach(() => {
  watcher?.close();
  watcher = null;
  temp?.cleanup();
});

function started(): FolderWatcher {
  const made = startFolderWatcher();
  if (!made)
    throw new Error("startFolderWatcher returned null: no worker thread or temp folder on this machine");
  watcher = made;
  return made;
}

describe("startFolderWatcher", () => {
  it("sees every write that completed before changes(), synchronously, 50 times over", () => {
    temp = tempRoot("skillgate-watch-", { realpath: true });
    const a = temp.path("a");
    const b = temp.path("b");
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    const folders = started();
    expect(folders.watch([a, b])).toBe(true);
    expect(folders.changes()).toEqual({ changed: new Set(), replaced: new Set() });
    for (let round = 0; round < 50; round++) {
      const target = round % 2 === 0 ? a : b;
      fs.writeFileSync(path.join(target, `f${round}`), String(round));
      const seen = folders.changes();
      expect(seen?.changed).toEqual(new Set([target]));
    }
    expect(folders.changes()).toEqual({ changed: new Set(), replaced: new Set() });
  });

  it("changes(mark) needs a fence begun after the mark: a write before the mark is always seen, then the fence is shared", () => {
    temp = tempRoot("skillgate-watch-", { realpath: true });
    const a = temp.path("a");
    fs.mkdirSync(a);
    const folders = started();
    expect(folders.watch([a])).toBe(true);
    expect(folders.changes()).toEqual({ changed: new Set(), replaced: new Set() });
    for (let round = 0; round < 30; round++) {
      fs.writeFileSync(path.join(a, `f${round}`), String(round));
      const mark = fenceMark();
      // No fence was begun after the mark: this one makes its own and sees the write.
      expect(folders.changes(mark)?.changed).toEqual(new Set([a]));
      expect(fenceMark()).toBe(mark + 1);
      // A second caller that arrived at the same mark shares that fence: no round trip, nothing new.
      expect(folders.changes(mark)).toEqual({ changed: new Set(), replaced: new Set() });
      expect(fenceMark()).toBe(mark + 1);
    }
    // Without a mark every call fences, as before.
    const mark = fenceMark();
    folders.changes();
    folders.changes();
    expect(fenceMark()).toBe(mark + 2);
  });

  it("reports a watched folder that was deleted and recreated as replaced (its old watch is dead)", () => {
    temp = tempRoot("skillgate-watch-", { realpath: true });
    const parent = temp.path("p");
    const child = path.join(parent, "child");
    fs.mkdirSync(child, { recursive: true });
    const folders = started();
    expect(folders.watch([parent, child])).toBe(true);
    fs.rmSync(child, { recursive: true });
    fs.mkdirSync(child);
    const seen = folders.changes();
    expect(seen?.replaced).toEqual(new Set([child]));
    expect(seen?.changed.has(parent)).toBe(true);
    expect(folders.watch([child])).toBe(true);
    fs.writeFileSync(path.join(child, "new"), "x");
    expect(folders.changes()?.changed).toEqual(new Set([child]));
  });

  it("an unwatched folder's changes are not reported", () => {
    temp = tempRoot("skillgate-watch-", { realpath: true });
    const a = temp.path("a");
    fs.mkdirSync(a);
    const folders = started();
    expect(folders.watch([a])).toBe(true);
    expect(folders.watch([], [a])).toBe(true);
    fs.writeFileSync(path.join(a, "f"), "x");
    expect(folders.changes()).toEqual({ changed: new Set(), replaced: new Set() });
  });

  it("after close, watch is false and changes is null (callers fall back to a full rescan)", () => {
    temp = tempRoot("skillgate-watch-", { realpath: true });
    const folders = started();
    folders.close();
    expect(folders.watch([temp.dir])).toBe(false);
    expect(folders.changes()).toBeNull();
    folders.close();
  });
});
