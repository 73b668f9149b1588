// CopyFile through the registry: UCAgent's texts, overwrite, a missing or non-file source, and the write boundary.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { README_MD, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("CopyFile", () => {
  it("copies once, then refuses to overwrite unless asked", async () => {
    expect(
      (await callTool(ws.session, "CopyFile", { source_path: "dut/README.md", dest_path: "out/R.md" })).text,
    ).toBe("File copied successfully from 'dut/README.md' to 'out/R.md' (18 B)");
    expect(
      (await callTool(ws.session, "CopyFile", { source_path: "dut/README.md", dest_path: "out/R.md" })).text,
    ).toBe("Destination file out/R.md already exists. Use overwrite=True to replace it.");
    writeFileSync(ws.out("R.md"), "changed\n");
    const again = await callTool(ws.session, "CopyFile", {
      source_path: "dut/README.md",
      dest_path: "out/R.md",
      overwrite: true,
    });
    expect(again).toMatchObject({
      isError: false,
      text: "File copied successfully from 'dut/README.md' to 'out/R.md' (18 B)",
      structured: { overwritten: true, bytes: 18 },
    });
    expect(readFileSync(ws.out("R.md"), "utf8")).toBe(README_MD);
  });

  it.each([
    [
      { source_path: "dut/none.md", dest_path: "out/x.md" },
      "FILE_NOT_FOUND",
      "Source file dut/none.md does not exist.",
    ],
    [
      { source_path: "dut/src", dest_path: "out/x.md" },
      "NOT_REGULAR_FILE",
      "Source file error: Path dut/src is not a file in workspace.",
    ],
    [
      { source_path: "dut/README.md", dest_path: "dut/copy.md" },
      "WRITE_NOT_ALLOWED",
      "Destination file error: Path 'dut/copy.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
    [
      { source_path: "/etc/passwd", dest_path: "out/p" },
      "PATH_OUTSIDE_WORKSPACE",
      "Source file error: Path '/etc/passwd' is absolute; give it relative to '.'.",
    ],
  ])("refuses %j with %s and writes nothing", async (args, code, text) => {
    expect(await callTool(ws.session, "CopyFile", args)).toMatchObject({ isError: true, code, text });
    expect(existsSync(join(ws.fixture.ws, args.dest_path))).toBe(false);
  });
});
