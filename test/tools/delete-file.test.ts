// DeleteFile through the registry: UCAgent's texts for files and folders, expected_sha256, recursive, the write boundary.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("DeleteFile", () => {
  it("answers UCAgent's texts for wrong kinds, a non-empty folder, a changed file, then deletes", async () => {
    mkdirSync(ws.out("d"));
    writeFileSync(ws.out("d/R.md"), "# Calc\nTODO: docs\n");
    expect((await callTool(ws.session, "DeleteFile", { path: "out/d" })).text).toBe(
      "Path out/d is a directory, but 'is_dir' is False. Please set 'is_dir' to True to delete directories.",
    );
    expect((await callTool(ws.session, "DeleteFile", { path: "out/d", is_dir: true })).text).toBe(
      "Directory out/d is not empty. Use 'recursive=True' to delete non-empty directories.",
    );
    const stale = await callTool(ws.session, "DeleteFile", { path: "out/d/R.md", expected_sha256: sha("") });
    expect(stale.code).toBe("FILE_CHANGED");
    expect(stale.text).toBe(
      `File out/d/R.md changed after it was read. Expected SHA256 ${sha("")}, current SHA256 ${sha("# Calc\nTODO: docs\n")}.`,
    );
    expect(existsSync(ws.out("d/R.md"))).toBe(true);
    expect((await callTool(ws.session, "DeleteFile", { path: "out/d/R.md" })).text).toBe(
      "File out/d/R.md deleted successfully.",
    );
    expect((await callTool(ws.session, "DeleteFile", { path: "out/d", is_dir: true })).text).toBe(
      "Empty directory out/d deleted successfully.",
    );
  });

  it("deletes a folder tree with recursive: true", async () => {
    mkdirSync(ws.out("tree/sub"), { recursive: true });
    writeFileSync(ws.out("tree/sub/f"), "f");
    expect(
      (await callTool(ws.session, "DeleteFile", { path: "out/tree", is_dir: true, recursive: true })).text,
    ).toBe("Directory out/tree and all its contents deleted successfully.");
    expect(existsSync(ws.out("tree"))).toBe(false);
  });

  it.each([
    [
      { path: "out/none.txt" },
      "FILE_NOT_FOUND",
      "File out/none.txt does not exist in workspace. Please create it first.",
    ],
    [{ path: "out/none", is_dir: true }, "FILE_NOT_FOUND", "Path out/none does not exist in workspace."],
    [
      { path: "out/a.txt", is_dir: true },
      "INVALID_ARGS",
      "Path out/a.txt is a file, but 'is_dir' is True. Please set 'is_dir' to False to delete files.",
    ],
    [
      { path: "dut/README.md" },
      "WRITE_NOT_ALLOWED",
      "Path 'dut/README.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
    // The write_dirs folder itself (OUT): only what is inside it may go, however the path is spelled.
    [
      { path: "out", is_dir: true, recursive: true },
      "WRITE_NOT_ALLOWED",
      "Path 'out' is a writable root folder (write_dirs) and cannot be deleted itself; delete the files and folders inside it instead (PathList 'out' lists them).",
    ],
    [
      { path: "./dut/../out/", is_dir: true, recursive: true },
      "WRITE_NOT_ALLOWED",
      "Path './dut/../out/' (out) is a writable root folder (write_dirs) and cannot be deleted itself; delete the files and folders inside it instead (PathList 'out' lists them).",
    ],
    [
      { path: "out", is_dir: true },
      "WRITE_NOT_ALLOWED",
      "Path 'out' is a writable root folder (write_dirs) and cannot be deleted itself; delete the files and folders inside it instead (PathList 'out' lists them).",
    ],
  ])("refuses %j with %s and deletes nothing", async (args, code, text) => {
    writeFileSync(ws.out("a.txt"), "a\n");
    expect(await callTool(ws.session, "DeleteFile", args)).toMatchObject({ isError: true, code, text });
    expect(existsSync(ws.out("a.txt"))).toBe(true);
    expect(existsSync(join(ws.fixture.ws, "dut", "README.md"))).toBe(true);
  });
});
