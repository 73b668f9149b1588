// MoveFile through the registry: UCAgent's texts, an existing destination, the same file, and sources outside OUT.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("MoveFile", () => {
  it("moves a file inside OUT, creating the destination folder", async () => {
    writeFileSync(ws.out("R.md"), "# Calc\nTODO: docs\n");
    expect(
      (await callTool(ws.session, "MoveFile", { source_path: "out/R.md", dest_path: "out/d/R.md" })).text,
    ).toBe("File moved successfully from 'out/R.md' to 'out/d/R.md' (18 B)");
    expect(existsSync(ws.out("R.md"))).toBe(false);
    expect(readFileSync(ws.out("d/R.md"), "utf8")).toBe("# Calc\nTODO: docs\n");
  });

  it.each([
    [
      { source_path: "dut/README.md", dest_path: "out/R.md" },
      "WRITE_NOT_ALLOWED",
      "Source file error: Path 'dut/README.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
    [
      { source_path: "out/a.txt", dest_path: "out/a.txt" },
      "INVALID_ARGS",
      "Source and destination resolve to the same file.",
    ],
    [
      { source_path: "out/none", dest_path: "out/y" },
      "FILE_NOT_FOUND",
      "Source file out/none does not exist.",
    ],
    [
      { source_path: "out/a.txt", dest_path: "out/b.txt" },
      "FILE_EXISTS",
      "Destination file out/b.txt already exists. Use overwrite=True to replace it.",
    ],
  ])("refuses %j with %s and moves nothing", async (args, code, text) => {
    writeFileSync(ws.out("a.txt"), "a\n");
    writeFileSync(ws.out("b.txt"), "b\n");
    expect(await callTool(ws.session, "MoveFile", args)).toMatchObject({ isError: true, code, text });
    expect(readFileSync(ws.out("a.txt"), "utf8")).toBe("a\n");
    expect(readFileSync(ws.out("b.txt"), "utf8")).toBe("b\n");
    expect(existsSync(join(ws.fixture.ws, "dut", "README.md"))).toBe(true);
  });
});
