// Reading one SKILL.md for the walker (runtime/skills/tree-read.ts): bounded at 10 MiB without reading past it, a
// symlinked SKILL.md kept inside the root, the shared read buffer, and the exact diagnostics.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isInside } from "../../runtime/contracts/index.js";
import { errorCode, readSkillFile, symlinkEscape } from "../../runtime/skills/tree-read.js";
import { MAX_SKILL_FILE_BYTES } from "../../runtime/skills/validate.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

describe("readSkillFile", () => {
  it("reads a small file and a file over one 64 KiB chunk exactly", () => {
    temp = tempRoot("skillgate-tree-read-", { realpath: true });
    const small = temp.path("small.md");
    fs.writeFileSync(small, "---\nname: a\n---\n");
    const read = readSkillFile(small, undefined);
    expect(read.ok && read.content.toString()).toBe("---\nname: a\n---\n");
    const big = temp.path("big.md");
    const content = Buffer.alloc(200_000, "x");
    content.write("head", 0);
    content.write("tail", content.length - 4);
    fs.writeFileSync(big, content);
    const bigRead = readSkillFile(big, undefined);
    expect(bigRead.ok && Buffer.compare(bigRead.content, content)).toBe(0);
  });

  it("accepts exactly 10 MiB and refuses one byte more with the file's size", () => {
    temp = tempRoot("skillgate-tree-read-", { realpath: true });
    const file = temp.path("SKILL.md");
    fs.writeFileSync(file, Buffer.alloc(MAX_SKILL_FILE_BYTES, "a"));
    const limit = readSkillFile(file, undefined);
    expect(limit.ok && limit.content.length).toBe(MAX_SKILL_FILE_BYTES);
    fs.appendFileSync(file, "b");
    expect(readSkillFile(file, undefined)).toEqual({
      ok: false,
      diagnostic: {
        path: file,
        code: "TOO_LARGE",
        message: `SKILL.md is ${MAX_SKILL_FILE_BYTES + 1} bytes, over the 10 MiB limit (${MAX_SKILL_FILE_BYTES} bytes); move long material into references/ and keep SKILL.md short`,
        severity: "error",
      },
    });
  });

  it("a symlinked SKILL.md is read when its target stays inside the root, refused when it leaves", () => {
    temp = tempRoot("skillgate-tree-read-", { realpath: true });
    const root = temp.path("root");
    fs.mkdirSync(path.join(root, "skill"), { recursive: true });
    fs.writeFileSync(path.join(root, "shared.md"), "inside");
    fs.writeFileSync(temp.path("outside.md"), "outside");
    const inside = path.join(root, "skill", "SKILL.md");
    fs.symlinkSync(path.join(root, "shared.md"), inside);
    const read = readSkillFile(inside, root);
    expect(read.ok && read.content.toString()).toBe("inside");
    fs.rmSync(inside);
    fs.symlinkSync(temp.path("outside.md"), inside);
    expect(readSkillFile(inside, root)).toEqual({
      ok: false,
      diagnostic: {
        path: inside,
        code: "SYMLINK_ESCAPE",
        message: `SKILL.md ${inside} is a symlink to ${temp.path("outside.md")}, outside the skill root; not loaded — copy the file into the skill folder instead`,
        severity: "error",
      },
    });
    expect(symlinkEscape(inside, temp.dir)).toBeNull();
  });

  it("a missing file and a dangling link are UNREADABLE with the errno", () => {
    temp = tempRoot("skillgate-tree-read-", { realpath: true });
    const missing = temp.path("none.md");
    expect(readSkillFile(missing, undefined)).toEqual({
      ok: false,
      diagnostic: {
        path: missing,
        code: "UNREADABLE",
        message: `cannot read SKILL.md (ENOENT): ${missing}; make it a readable regular file or remove the folder`,
        severity: "error",
      },
    });
    const dangling = temp.path("dangling.md");
    fs.symlinkSync(temp.path("gone"), dangling);
    const read = readSkillFile(dangling, temp.dir);
    expect(read.ok || read.diagnostic.code).toBe("UNREADABLE");
    expect(read.ok || read.diagnostic.message).toContain("(ENOENT)");
  });
});

describe("isInside and errorCode", () => {
  it.each([
    ["/a", "/a", true],
    ["/a", "/a/b", true],
    ["/a", "/ab", false],
    ["/a", "/", false],
    ["/a/b", "/a", false],
    ["/a", "/a/..b", true],
  ])("isInside(%s, %s) = %s", (parent, child, expected) => {
    expect(isInside(parent, child)).toBe(expected);
  });

  it("errorCode reads an errno code and falls back for anything else", () => {
    expect(errorCode(Object.assign(new Error("x"), { code: "EACCES" }))).toBe("EACCES");
    expect(errorCode(new Error("x"))).toBe("unknown error");
    expect(errorCode("text")).toBe("unknown error");
  });
});
