// Walking and sniffing workspace files for the listing/search tools: relative paths, patterns, hidden parts, text sniffing.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  hasHiddenSegment,
  isTextFile,
  matchPatternList,
  walkWorkspace,
} from "../../runtime/tools/file-scan.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("walkWorkspace", () => {
  it("gives workspace-relative paths below the folder, and never follows a symlink out", async () => {
    symlinkSync("/etc", ws.out("etc-link"));
    const walked = await walkWorkspace(ws.fixture.ws, "dut");
    expect(walked.base).toBe("dut");
    expect(walked.truncated).toBe(false);
    expect(walked.entries.map((entry) => [entry.rel, entry.kind])).toEqual([
      ["dut/README.md", "file"],
      ["dut/src", "directory"],
      ["dut/src/calc.py", "file"],
    ]);
    const out = await walkWorkspace(ws.fixture.ws, "out");
    expect(out.entries.map((entry) => [entry.rel, entry.kind])).toEqual([["out/etc-link", "symlink"]]);
  });

  it("refuses a folder outside the workspace", async () => {
    await expect(walkWorkspace(ws.fixture.ws, "..")).rejects.toMatchObject({
      code: "PATH_OUTSIDE_WORKSPACE",
    });
  });
});

describe("matchPatternList and hasHiddenSegment", () => {
  it.each([
    ["a/b.dat", ["*.dat"], true],
    [".ucagent/x", [".ucagent/*"], true],
    // fnmatch is anchored: a nested .git is left to hasHiddenSegment.
    ["src/.git/config", [".git/*"], false],
    ["waves.fst.txt", ["*.fst"], false],
    ["notes/todo.md", ["todo"], true],
    ["notes/done.md", ["todo"], false],
  ])("%s against %j: %s", (name, patterns, match) => {
    expect(matchPatternList(name, patterns)).toBe(match);
  });

  it.each([
    ["a/.hidden/b", true],
    [".env", true],
    ["a/b.c/d", false],
  ])("%s hidden: %s", (rel, hidden) => {
    expect(hasHiddenSegment(rel)).toBe(hidden);
  });
});

describe("isTextFile", () => {
  it("is text for UTF-8 without NUL (an incomplete last character allowed), not for NUL, bad UTF-8 or a folder", async () => {
    mkdirSync(ws.out("dir"));
    writeFileSync(ws.out("text.txt"), "héllo\n");
    writeFileSync(ws.out("nul.bin"), Buffer.from([0x61, 0, 0x62]));
    writeFileSync(ws.out("latin1.txt"), Buffer.from([0x68, 0xe9, 0x6c]));
    // 4 KiB of ASCII then the first byte of "é": the prefix read ends inside a character.
    writeFileSync(ws.out("cut.txt"), Buffer.concat([Buffer.alloc(4095, 0x61), Buffer.from("é")]));
    const verdicts = await Promise.all(
      ["text.txt", "nul.bin", "latin1.txt", "cut.txt", "dir", "none"].map((name) =>
        isTextFile(ws.fixture.ws, `out/${name}`),
      ),
    );
    expect(verdicts).toEqual([true, false, false, true, false, false]);
  });
});
