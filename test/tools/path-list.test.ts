// PathList through the registry: UCAgent's listing table (type, size, bytes), depth, missing and outside paths.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();
const HEADER = "Index    Name    (Type, Size, Bytes)";

describe("PathList", () => {
  it("lists a folder recursively with UCAgent's table, folders marked with a slash", async () => {
    expect((await callTool(ws.session, "PathList", { path: "dut" })).text).toBe(
      [
        "Found 1 directories and 2 files in workspace.",
        "",
        HEADER,
        "0    dut/README.md    (type: text, size: 18 B, bytes: 18)",
        "1    dut/src/    (type: directory, size: N/A, bytes: N/A)",
        "2    dut/src/calc.py    (type: text, size: 47 B, bytes: 47)",
      ].join("\n"),
    );
  });

  it("depth 0 lists only the folder's own files; a binary file is typed as such", async () => {
    writeFileSync(ws.out("bin.dat"), Buffer.from([0, 1, 2]));
    expect((await callTool(ws.session, "PathList", { path: "dut", depth: 0 })).text).toBe(
      [
        "Found 0 directories and 1 files in workspace.",
        "",
        HEADER,
        "0    dut/README.md    (type: text, size: 18 B, bytes: 18)",
      ].join("\n"),
    );
    expect((await callTool(ws.session, "PathList", { path: "out" })).text).toContain(
      "0    out/bin.dat    (type: binary, size: 3 B, bytes: 3)",
    );
  });

  it.each([
    [{ path: "nope" }, "FILE_NOT_FOUND", "Cannot open nope: it does not exist."],
    [
      { path: "../" },
      "PATH_OUTSIDE_WORKSPACE",
      "Path '../' is not within the workspace: it leads outside '.'.",
    ],
  ])("refuses %j with %s", async (args, code, text) => {
    expect(await callTool(ws.session, "PathList", args)).toMatchObject({ isError: true, code, text });
  });
});
