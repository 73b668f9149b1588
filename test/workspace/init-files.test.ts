// File mechanics of init (runtime/workspace/init-files.ts): read-only copies that skip unchanged files, executables kept
// executable, anything in a file's place replaced, pruning what left the plan, folder checks with the fix in the message.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Bytes } from "../../runtime/workspace/hash.js";
import {
  countFiles,
  existingFileHash,
  foldersBottomUp,
  prune,
  READ_ONLY_EXECUTABLE,
  READ_ONLY_FILE,
  requireFolder,
  setFolderModes,
  syncFile,
  WRITABLE_DIR,
} from "../../runtime/workspace/init-files.js";
import { writeTree } from "../skills/helpers.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("syncFile", () => {
  it("copies read-only (executables 0555), records the hash, and does not rewrite an unchanged copy", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    writeTree(temp.dir, { "src/a.md": "text", "src/run.sh": "#!/bin/sh\n" });
    chmodSync(temp.path("src/run.sh"), 0o755);
    const skills = temp.path("skills");
    const first = await syncFile({ rel: "tool/a.md", source: temp.path("src/a.md") }, skills);
    expect(first).toEqual({
      entry: { sha256: sha256Bytes("text"), size: 4, source: temp.path("src/a.md") },
      written: true,
    });
    expect(modeOf(join(skills, "tool/a.md"))).toBe(READ_ONLY_FILE);
    await syncFile({ rel: "tool/run.sh", source: temp.path("src/run.sh") }, skills);
    expect(modeOf(join(skills, "tool/run.sh"))).toBe(READ_ONLY_EXECUTABLE);
    const inode = statSync(join(skills, "tool/a.md")).ino;
    const again = await syncFile({ rel: "tool/a.md", source: temp.path("src/a.md") }, skills);
    expect(again.written).toBe(false);
    expect(statSync(join(skills, "tool/a.md")).ino).toBe(inode);
  });

  it("restores an edited copy (atomically: a new inode) and puts back a loosened mode on an unchanged one", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    writeTree(temp.dir, { "src/a.md": "text" });
    const skills = temp.path("skills");
    const file = { rel: "a.md", source: temp.path("src/a.md") };
    await syncFile(file, skills);
    const copy = join(skills, "a.md");
    chmodSync(copy, 0o644);
    expect((await syncFile(file, skills)).written).toBe(false);
    expect(modeOf(copy)).toBe(READ_ONLY_FILE);
    chmodSync(copy, 0o644);
    writeFileSync(copy, "edited");
    const inode = statSync(copy).ino;
    expect((await syncFile(file, skills)).written).toBe(true);
    expect(readFileSync(copy, "utf8")).toBe("text");
    expect(statSync(copy).ino).not.toBe(inode);
  });

  it("existingFileHash removes a folder standing where a file goes", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    writeTree(temp.dir, { "target/inner.txt": "x", "file.txt": "abc" });
    expect(await existingFileHash(temp.path("file.txt"))).toBe(sha256Bytes("abc"));
    expect(await existingFileHash(temp.path("target"))).toBeNull();
    expect(existsSync(temp.path("target"))).toBe(false);
    expect(await existingFileHash(temp.path("none"))).toBeNull();
  });
});

describe("prune", () => {
  it("removes unplanned files and folders (counting their files) and keeps planned ones and their folders", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    const skills = temp.path("skills");
    writeTree(skills, {
      "keep/SKILL.md": "",
      "keep/scripts/run.py": "",
      "keep/scripts/added.py": "",
      "gone/SKILL.md": "",
      "gone/scripts/a.py": "",
      "stray.txt": "",
    });
    mkdirSync(join(skills, "empty"));
    const removed = await prune(skills, new Set(["keep/SKILL.md", "keep/scripts/run.py"]));
    expect(removed).toBe(4);
    expect(await countFiles(skills)).toBe(2);
    expect(existsSync(join(skills, "gone"))).toBe(false);
    expect(existsSync(join(skills, "empty"))).toBe(false);
  });
});

describe("folders", () => {
  it("foldersBottomUp lists children before parents; setFolderModes applies to every one", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    mkdirSync(temp.path("r", "a", "b"), { recursive: true });
    mkdirSync(temp.path("r", "c"));
    const order = await foldersBottomUp(temp.path("r"));
    expect(order.indexOf(temp.path("r", "a", "b"))).toBeLessThan(order.indexOf(temp.path("r", "a")));
    expect(order.at(-1)).toBe(temp.path("r"));
    expect(order).toHaveLength(4);
    await setFolderModes(temp.path("r"), 0o555);
    expect(order.map(modeOf)).toEqual([0o555, 0o555, 0o555, 0o555]);
    await setFolderModes(temp.path("r"), WRITABLE_DIR);
    expect(modeOf(temp.path("r", "a"))).toBe(WRITABLE_DIR);
  });

  it("requireFolder gives the real path, or PATH_NOT_FOUND saying what and how to fix it", async () => {
    temp = tempRoot("skillgate-init-files-", { realpath: true });
    writeFileSync(temp.path("file"), "");
    expect(await requireFolder(temp.dir, "skill pack", "fix it")).toBe(temp.dir);
    await expect(requireFolder(temp.path("none"), "skill pack", "set skill.pack_path")).rejects.toMatchObject(
      {
        code: "PATH_NOT_FOUND",
        message: `skill pack ${temp.path("none")} does not exist; set skill.pack_path`,
      },
    );
    await expect(requireFolder(temp.path("file"), "extra skill path", "remove it")).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `extra skill path ${temp.path("file")} is not a folder; remove it`,
    });
  });
});
