// runtime/exec/prepared/bound-view.ts: bind sources by identity, which binds a sandbox shows, and its view while bwrap mounts.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  bindSources,
  type IdentityOf,
  readBoundView,
  visibleBinds,
} from "../../../runtime/exec/prepared/bound-view.js";
import { tempRoot } from "../../support/workspace.js";

const temp = tempRoot("skillgate-bound-view-", { realpath: true });
afterAll(() => temp.cleanup());

describe("bindSources", () => {
  it("records device, inode and birth time of each bind source once, and 'missing' for an absent one", () => {
    const dir = join(temp.dir, "bound");
    mkdirSync(dir);
    const info = statSync(dir, { bigint: true });
    const argv = [
      "bwrap",
      "--bind",
      dir,
      dir,
      "--ro-bind",
      dir,
      "/x",
      "--ro-bind-try",
      "/nonexistent/s",
      "/y",
    ];
    expect(bindSources([...argv, "--tmpfs", "/tmp", "--", "ls"])).toEqual(
      new Map([
        [dir, `${info.dev}:${info.ino}:${info.birthtimeNs}`],
        ["/nonexistent/s", "missing"],
      ]),
    );
  });

  it("tells a folder made again at the same path from the one that was bound", () => {
    const dir = join(temp.dir, "again");
    mkdirSync(dir);
    const before = bindSources(["--bind", dir, dir]).get(dir);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    expect(bindSources(["--bind", dir, dir]).get(dir)).not.toBe(before);
  });
});

const HEAD = ["prlimit", "--nproc=64", "--", "/usr/bin/bwrap", "--unshare-user", "--die-with-parent"];

describe("visibleBinds", () => {
  it.each([
    ["a plain bind", ["--ro-bind", "/usr", "/usr"], [{ source: "/usr", dest: "/usr" }]],
    ["a bind under a later tmpfs", ["--bind", "/ws/a", "/ws/a", "--tmpfs", "/ws"], []],
    [
      "a bind over by a later /dev/null mask",
      ["--bind", "/ws/k", "/ws/k", "--ro-bind", "/dev/null", "/ws/k"],
      [{ source: "/dev/null", dest: "/ws/k" }],
    ],
    [
      "a bind beside a later one with a longer name",
      ["--bind", "/ws", "/ws", "--tmpfs", "/wsx"],
      [{ source: "/ws", dest: "/ws" }],
    ],
    [
      "a later bind inside an earlier one",
      ["--bind", "/ws", "/ws", "--ro-bind", "/ws/.git", "/ws/.git"],
      [
        { source: "/ws", dest: "/ws" },
        { source: "/ws/.git", dest: "/ws/.git" },
      ],
    ],
    [
      "an environment value spelled like an option",
      ["--setenv", "X", "--tmpfs", "--bind", "/a", "/a"],
      [{ source: "/a", dest: "/a" }],
    ],
    [
      "a --remount-ro and --dir, which mount nothing",
      ["--bind", "/w", "/w", "--dir", "/w", "--remount-ro", "/w"],
      [{ source: "/w", dest: "/w" }],
    ],
  ])("%s", (_, ops, expected) => {
    expect(visibleBinds([...HEAD, ...ops, "--chdir", "/", "--", "python3", "--bind", "/x", "/x"])).toEqual(
      expected,
    );
  });

  it.each([
    ["no bwrap options", ["python3", "x.py"]],
    ["an option it does not know", [...HEAD, "--overlay-src", "/a", "--", "ls"]],
    ["options cut short", [...HEAD, "--bind", "/a"]],
    ["no end of the options", [...HEAD, "--bind", "/a", "/a"]],
  ])("cannot read %s", (_, argv) => {
    expect(visibleBinds(argv)).toBeNull();
  });
});

describe("readBoundView", () => {
  const argv = [...HEAD, "--ro-bind", "/s", "/s", "--ro-bind-try", "/gone", "/gone", "--", "ls"];
  const view =
    (table: Record<string, string>): IdentityOf =>
    (path) =>
      table[path] ?? "missing";

  it.each([
    [
      "the sandbox still has the host's root",
      { "/": "r", "/r/": "r", "/s": "s1", "/r/s": "s1" },
      { state: "mounting" },
    ],
    ["a bind not there yet", { "/": "r", "/r/": "t", "/s": "s1" }, { state: "mounting" }],
    [
      "a path swapped while bwrap mounted it",
      { "/": "r", "/r/": "t", "/s": "s2", "/r/s": "s1" },
      {
        state: "differs",
        path: "/s",
      },
    ],
    [
      "everything mounted (an absent -try source mounts nothing)",
      { "/": "r", "/r/": "t", "/s": "s1", "/r/s": "s1" },
      {
        state: "mounted",
        sources: new Map([
          ["/s", "s1"],
          ["/gone", "missing"],
        ]),
      },
    ],
  ])("%s", (_, table, expected) => {
    expect(readBoundView(argv, "/r", view(table))).toEqual(expected);
  });

  it("says so for an argv it cannot read", () => {
    expect(readBoundView(["ls"], "/r", view({}))).toEqual({
      state: "differs",
      path: "(an argv this reader does not know)",
    });
  });
});
