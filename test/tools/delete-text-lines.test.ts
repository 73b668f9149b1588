// DeleteTextLines through the registry: merged line blocks against the original numbering, a missing file.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { README_MD, sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("DeleteTextLines", () => {
  beforeEach(() => writeFileSync(ws.out("r.txt"), "a\nb\na\nc\n"));

  it("deletes merged line blocks against the original numbering", async () => {
    const result = await callTool(ws.session, "DeleteTextLines", {
      path: "out/r.txt",
      line_blocks: [1, [2, 2], 4],
    });
    expect(result.text.split("\n")[0]).toBe(
      `Deleted 3 physical lines from 'out/r.txt' in normalized blocks [1-2, 4]. 1 lines remain. SHA256: ` +
        `${sha("a\nb\na\nc\n")} -> ${sha("a\n")}. Read the updated file, then use ReplaceStringInFile for remaining precise content edits.`,
    );
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\n");
    const missing = await callTool(ws.session, "DeleteTextLines", { path: "out/none.txt", line_blocks: [1] });
    expect(missing.text).toBe("File out/none.txt does not exist in workspace. Please create it first.");
  });

  it.each([
    [
      { path: "dut/README.md", line_blocks: [1] },
      "WRITE_NOT_ALLOWED",
      "Path 'dut/README.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
    [
      { path: "out/r.txt", line_blocks: [] },
      "INVALID_ARGS",
      'Invalid arguments for DeleteTextLines: \'line_blocks\' is too small (expected array to have >=1 items), got []. Fix the call and try again, e.g. DeleteTextLines {"path": "out/report.md", "line_blocks": [3, [10, 12]]}.',
    ],
    [
      { path: "out/r.txt", line_blocks: [0] },
      "INVALID_ARGS",
      'Invalid arguments for DeleteTextLines: \'line_blocks[0]\' is too small (expected number to be >=1), got 0. Fix the call and try again, e.g. DeleteTextLines {"path": "out/report.md", "line_blocks": [3, [10, 12]]}.',
    ],
  ])("refuses %j with %s and changes nothing", async (args, code, text) => {
    expect(await callTool(ws.session, "DeleteTextLines", args)).toMatchObject({ isError: true, code, text });
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
    expect(readFileSync(join(ws.fixture.ws, "dut", "README.md"), "utf8")).toBe(README_MD);
  });

  it("refuses a line block past the end and keeps CRLF line ends when deleting", async () => {
    const past = await callTool(ws.session, "DeleteTextLines", { path: "out/r.txt", line_blocks: [[4, 5]] });
    expect(past).toMatchObject({ isError: true, code: "INVALID_ARGS" });
    expect(past.text).toContain("line block [4, 5] is out of range for a file with 4 physical lines");
    writeFileSync(ws.out("crlf.txt"), "a\r\nb\r\nc\r\n");
    expect(
      (await callTool(ws.session, "DeleteTextLines", { path: "out/crlf.txt", line_blocks: [2] })).isError,
    ).toBe(false);
    expect(readFileSync(ws.out("crlf.txt"), "utf8")).toBe("a\r\nc\r\n");
  });
});
