// FindFiles through the registry: shell-style name patterns, .ucagent skipped, no match as an isError result.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("FindFiles", () => {
  it("FindFiles matches file names shell-style, skipping .ucagent", async () => {
    const found = await callTool(ws.session, "FindFiles", { pattern: "*.py" });
    expect(found.text).toBe("Found 1 matching files.\n\ndut/src/calc.py");
    const none = await callTool(ws.session, "FindFiles", { pattern: "SKILL.md" });
    expect(none).toMatchObject({
      isError: true,
      text: "No matches found for 'SKILL.md' in the specified directory().",
    });
  });

  it("searches below a folder, and answers a folder outside the workspace or missing with exact texts", async () => {
    expect((await callTool(ws.session, "FindFiles", { pattern: "*.md", directory: "dut" })).text).toBe(
      "Found 1 matching files.\n\ndut/README.md",
    );
    // The whole file name must match (fnmatch), not a part of it.
    expect(await callTool(ws.session, "FindFiles", { pattern: "calc" })).toMatchObject({
      isError: true,
      code: "MATCH_NOT_FOUND",
    });
    expect((await callTool(ws.session, "FindFiles", { pattern: "calc.*" })).text).toBe(
      "Found 1 matching files.\n\ndut/src/calc.py",
    );
    expect(await callTool(ws.session, "FindFiles", { pattern: "*.py", directory: "../" })).toMatchObject({
      isError: true,
      code: "PATH_OUTSIDE_WORKSPACE",
      text: "Path '../' is not within the workspace: it leads outside '.'.",
    });
    expect(await callTool(ws.session, "FindFiles", { pattern: "*", directory: "nope" })).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "Cannot open nope: it does not exist.",
    });
  });

  it("stops at max_match_files and says so; skips *.dat waveforms like UCAgent", async () => {
    for (const name of ["a.txt", "b.txt", "c.txt", "wave.dat"]) writeFileSync(ws.out(name), "x");
    expect((await callTool(ws.session, "FindFiles", { pattern: "*.txt", max_match_files: 2 })).text).toBe(
      "Found 2 matching files.\n\nout/a.txt\nout/b.txt\n... (truncated to 2 files)",
    );
    expect(await callTool(ws.session, "FindFiles", { pattern: "wave.*" })).toMatchObject({
      isError: true,
      code: "MATCH_NOT_FOUND",
    });
  });
});
