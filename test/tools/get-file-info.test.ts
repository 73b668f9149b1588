// GetFileInfo through the registry: a text file's lines and sha256, a folder's contents.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("GetFileInfo", () => {
  it("GetFileInfo reports a text file's lines and sha256, and a folder's contents", async () => {
    const file = await callTool(ws.session, "GetFileInfo", { path: "dut/src/calc.py", include_stats: false });
    const body = "def add(a, b):\n    return a - b\n\n# TODO: tests\n";
    expect(file.text).toBe(
      `File information for 'dut/src/calc.py':\n\nPath: dut/src/calc.py\nAbsolute path: ${join(ws.fixture.ws, "dut", "src", "calc.py")}\n` +
        `Type: File\nSize: ${body.length} B (${body.length} bytes)\nFile type: Text\nLine count: 4\nSHA256: ${sha(body)}`,
    );
    const dir = await callTool(ws.session, "GetFileInfo", { path: "dut" });
    expect(dir.text).toContain("Type: Directory\nContains: 1 files, 1 directories\nPermissions: drwx");
  });

  it.each([
    [{ path: "nope" }, "FILE_NOT_FOUND", "Path nope does not exist in workspace."],
    [
      { path: "../x" },
      "PATH_OUTSIDE_WORKSPACE",
      "Path '../x' is not within the workspace: it leads outside '.'.",
    ],
  ])("refuses %j with %s", async (args, code, text) => {
    expect(await callTool(ws.session, "GetFileInfo", args)).toMatchObject({ isError: true, code, text });
  });

  it("reports a binary file as binary, without a line count", async () => {
    writeFileSync(ws.out("bin.dat"), Buffer.from([0, 1, 2]));
    const info = await callTool(ws.session, "GetFileInfo", { path: "out/bin.dat", include_stats: false });
    expect(info.isError).toBe(false);
    expect(info.text).toContain("Size: 3 B (3 bytes)\nFile type: Binary");
    expect(info.text).not.toContain("Line count");
  });
});
