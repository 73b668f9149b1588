// The UCAgent file tools do not depend on skills: they work with skills disabled or the skill folder missing; file_tools: false.
import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("the file tools do not depend on skills", () => {
  it.each([
    ["skills disabled", { useSkill: false }],
    ["skill folder missing", {}],
  ])("%s: EditTextFile and PathList work", async (name, options) => {
    await ws.reopen(options);
    if (name === "skill folder missing") rmSync(ws.session.paths.skillsDir, { recursive: true, force: true });
    expect((await callTool(ws.session, "EditTextFile", { path: "out/x.md", content: "x\n" })).isError).toBe(
      false,
    );
    expect((await callTool(ws.session, "PathList", { path: "out" })).text).toContain(
      "out/x.md    (type: text",
    );
  });

  it("file_tools: false turns them off for callTool too", async () => {
    ws.session.config.file_tools = false;
    const result = await callTool(ws.session, "EditTextFile", { path: "out/x.md", content: "x" });
    expect(result).toMatchObject({
      isError: true,
      code: "TOOL_DISABLED",
      text: "EditTextFile is turned off here (file_tools: false or serve --no-file-tools): the host brings its own file tools, so use those.",
    });
  });
});
