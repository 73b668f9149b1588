// CreateDirectory through the registry: UCAgent's texts for created/existing folders, parents, and the write boundary.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();
const REFUSED =
  "is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.";

describe("CreateDirectory", () => {
  it("answers UCAgent's texts for a new folder and an existing one (exist_ok)", async () => {
    expect((await callTool(ws.session, "CreateDirectory", { path: "out/d" })).text).toBe(
      "Directory out/d created successfully.",
    );
    expect((await callTool(ws.session, "CreateDirectory", { path: "out/d" })).text).toBe(
      "Directory out/d already exists.",
    );
    expect((await callTool(ws.session, "CreateDirectory", { path: "out/d", exist_ok: false })).text).toBe(
      "Directory out/d already exists. Use exist_ok=True to ignore this error.",
    );
  });

  it("creates missing parents by default, and refuses them with parents: false", async () => {
    expect((await callTool(ws.session, "CreateDirectory", { path: "out/a/b/c" })).isError).toBe(false);
    expect(existsSync(join(ws.fixture.ws, "out", "a", "b", "c"))).toBe(true);
    expect(await callTool(ws.session, "CreateDirectory", { path: "out/x/y", parents: false })).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "Parent directory does not exist for out/x/y. Use parents=True to create parent directories.",
    });
    expect(existsSync(join(ws.fixture.ws, "out", "x"))).toBe(false);
  });

  it.each([
    ["dut/newdir", "WRITE_NOT_ALLOWED", `Directory creation error: Path 'dut/newdir' ${REFUSED}`],
    [".ucagent/newdir", "WRITE_NOT_ALLOWED", `Directory creation error: Path '.ucagent/newdir' ${REFUSED}`],
    [
      "../escape",
      "PATH_OUTSIDE_WORKSPACE",
      "Directory creation error: Path '../escape' is not within the workspace.",
    ],
  ])("refuses %s (%s) and creates nothing", async (path, code, text) => {
    expect(await callTool(ws.session, "CreateDirectory", { path })).toMatchObject({
      isError: true,
      code,
      text,
    });
    expect(existsSync(join(ws.fixture.ws, path))).toBe(false);
  });

  it("refuses a path that is a file", async () => {
    writeFileSync(ws.out("file.txt"), "x");
    expect(await callTool(ws.session, "CreateDirectory", { path: "out/file.txt" })).toMatchObject({
      isError: true,
      code: "FILE_EXISTS",
      text: "Path out/file.txt already exists as a file, cannot create directory.",
    });
  });
});
