// The walker's own checks and diagnostics (runtime/skills/tree-diagnostics.ts): the skill root, folder symlinks, limits, with exact messages.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  depthLimit,
  dirSymlinkEscape,
  resolveRoot,
  rootIsSkill,
  skillLimit,
  unreadableDir,
} from "../../runtime/skills/tree-diagnostics.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { skillMd, writeTree } from "./helpers.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const entries = (dir: string) => fs.readdirSync(dir, { withFileTypes: true });

describe("the skill root and the walker's diagnostics", () => {
  it("resolveRoot: the real path of a folder (through a link); a missing root or a file is SKILL_ROOT_MISSING", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    fs.mkdirSync(temp.path("real"));
    fs.symlinkSync(temp.path("real"), temp.path("link"));
    expect(resolveRoot(temp.path("link"))).toEqual({ realRoot: temp.path("real") });
    expect(resolveRoot(temp.path("none")).missing).toEqual({
      path: temp.path("none"),
      code: "SKILL_ROOT_MISSING",
      message: `skill root ${temp.path("none")} does not exist (ENOENT); create it or run "skillgate init" to copy the skill pack into the workspace`,
      severity: "error",
    });
    fs.writeFileSync(temp.path("file"), "");
    expect(resolveRoot(temp.path("file")).missing?.message).toBe(
      `skill root ${temp.path("file")} is not a folder; point the skill root at the folder that holds the skill folders`,
    );
  });

  it("dirSymlinkEscape reports a folder link that leaves the root, not one inside or a link to a file", () => {
    temp = tempRoot("skillgate-tree-files-", { realpath: true });
    writeTree(temp.dir, { "root/inner/SKILL.md": skillMd("inner"), "outside/x": "", "root/file": "" });
    const root = temp.path("root");
    fs.symlinkSync(temp.path("outside"), path.join(root, "out"));
    fs.symlinkSync(path.join(root, "inner"), path.join(root, "in"));
    fs.symlinkSync(path.join(root, "file"), path.join(root, "file-link"));
    const byName = (name: string) => entries(root).find((entry) => entry.name === name) as fs.Dirent;
    expect(dirSymlinkEscape(root, byName("out"), root)).toEqual({
      path: path.join(root, "out"),
      code: "SYMLINK_ESCAPE",
      message: `folder symlink ${path.join(root, "out")} points outside the skill root to ${temp.path("outside")}; not followed — copy that folder into the skill root instead`,
      severity: "warning",
    });
    expect(dirSymlinkEscape(root, byName("in"), root)).toBeNull();
    expect(dirSymlinkEscape(root, byName("file-link"), root)).toBeNull();
  });

  it("rootIsSkill, skillLimit and depthLimit say what was not loaded and the fix", () => {
    expect(rootIsSkill("/r").message).toBe(
      "the skill root /r itself holds SKILL.md, so it has no id and is not listed; use its parent folder as the skill root",
    );
    expect(skillLimit("/r", 5).message).toBe(
      "more than 5 skills under /r; the rest were not loaded — split the skill root or raise maxSkills",
    );
    expect(depthLimit("/r/a/b", "a/b", 2).message).toBe(
      "folder a/b is at the depth limit (2); its sub-folders were not scanned — move skills higher or raise maxDepth",
    );
    expect(depthLimit("/r", "", 0).message).toContain("folder . is at the depth limit (0)");
    expect(unreadableDir("/r/a", Object.assign(new Error("denied"), { code: "EACCES" }))).toEqual({
      path: "/r/a",
      code: "DIR_UNREADABLE",
      message: "cannot list folder /r/a (EACCES); its skills were not loaded — fix the folder permissions",
      severity: "warning",
    });
  });
});
