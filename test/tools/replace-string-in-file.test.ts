// ReplaceStringInFile through the registry: exact refusals that change nothing, line blocks, dry run.
import { readFileSync, writeFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("ReplaceStringInFile", () => {
  beforeEach(() => writeFileSync(ws.out("r.txt"), "a\nb\na\nc\n"));

  it.each([
    [
      { old_string: "a", new_string: "z" },
      "MATCH_NOT_UNIQUE",
      "The specified old_string appears 2 times in the whole file. Narrow line_blocks or include more surrounding context so it matches exactly once.",
    ],
    [
      { old_string: "q", new_string: "z" },
      "MATCH_NOT_FOUND",
      "The specified old_string was not found in the whole file. Read the current file and retry with exact, unique text; if the desired content is already present, no further write is needed.",
    ],
    [
      { old_string: "a", new_string: "z", line_blocks: [[4, 9]] },
      "INVALID_ARGS",
      "Invalid line_blocks for out/r.txt: line block [4, 9] is out of range for a file with 4 physical lines. No replacement was made.",
    ],
    [
      { old_string: "a", new_string: "z", line_blocks: [[3, 2]] },
      "INVALID_ARGS",
      "Invalid line_blocks for out/r.txt: line block [3, 2] must have start <= end. No replacement was made.",
    ],
  ])("refuses %j with %s and changes nothing", async (args, code, text) => {
    const result = await callTool(ws.session, "ReplaceStringInFile", { path: "out/r.txt", ...args });
    expect(result).toMatchObject({ isError: true, code, text });
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
  });

  it("replaces inside a line block, and a dry run writes nothing", async () => {
    const dry = await callTool(ws.session, "ReplaceStringInFile", {
      path: "out/r.txt",
      old_string: "a",
      new_string: "z",
      line_blocks: [[2, 3]],
      dry_run: true,
    });
    expect(dry.text.split("\n")[0]).toBe(
      `Dry run successful for out/r.txt. SHA256 would change from ${sha("a\nb\na\nc\n")} to ${sha("a\nb\nz\nc\n")}.`,
    );
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
    const done = await callTool(ws.session, "ReplaceStringInFile", {
      path: "out/r.txt",
      old_string: "a",
      new_string: "z",
      line_blocks: [[2, 3]],
    });
    expect(done.text.split("\n")[0]).toBe(
      "Successfully replaced 1 occurrence of the specified string in out/r.txt within line_blocks [2-3]. " +
        `SHA256: ${sha("a\nb\na\nc\n")} -> ${sha("a\nb\nz\nc\n")}.`,
    );
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\nb\nz\nc\n");
  });

  it("answers a missing file and an empty old_string with exact texts", async () => {
    expect(
      await callTool(ws.session, "ReplaceStringInFile", {
        path: "out/none.txt",
        old_string: "a",
        new_string: "b",
      }),
    ).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "File out/none.txt does not exist in workspace. Please create it first.",
    });
    expect(
      await callTool(ws.session, "ReplaceStringInFile", {
        path: "out/r.txt",
        old_string: "",
        new_string: "b",
      }),
    ).toMatchObject({
      isError: true,
      code: "INVALID_ARGS",
      text: 'Invalid arguments for ReplaceStringInFile: \'old_string\' is too small (expected string to have >=1 characters), got "". Fix the call and try again, e.g. ReplaceStringInFile {"path": "out/report.md", "old_string": "old text", "new_string": "new text"}.',
    });
    expect(readFileSync(ws.out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
  });
});
