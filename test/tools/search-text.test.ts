// SearchText through the registry: matches grouped per file with context, plain and regex, a bad regex.
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("SearchText", () => {
  it("SearchText groups matches per file with context, plain and regex", async () => {
    const plain = await callTool(ws.session, "SearchText", { pattern: "todo", directory: "dut" });
    expect(plain.text).toBe(
      "Found 2 matching lines in 2 files.\n\n" +
        "dut/README.md:\n```text\n1: # Calc\n2: TODO: docs\n```\n\n" +
        "dut/src/calc.py:\n```text\n3: \n4: # TODO: tests\n```",
    );
    const regex = await callTool(ws.session, "SearchText", {
      pattern: "return a [-+] b",
      use_regex: true,
      context_before: 0,
      context_after: 0,
    });
    expect(regex.text).toBe(
      "Found 1 matching line in 1 file.\n\ndut/src/calc.py:\n```text\n2:     return a - b\n```",
    );
    const bad = await callTool(ws.session, "SearchText", { pattern: "(", use_regex: true });
    expect(bad.text).toMatch(/^Invalid regex pattern '\(': /);
  });

  it("answers no match, a missing folder and a folder outside the workspace with exact texts", async () => {
    expect(await callTool(ws.session, "SearchText", { pattern: "nothing-here" })).toMatchObject({
      isError: true,
      code: "MATCH_NOT_FOUND",
      text: "No matches found for 'nothing-here' in the specified directory(.).",
    });
    expect(await callTool(ws.session, "SearchText", { pattern: "TODO", directory: "nope" })).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "Cannot open nope: it does not exist.",
    });
    expect(await callTool(ws.session, "SearchText", { pattern: "TODO", directory: "../" })).toMatchObject({
      isError: true,
      code: "PATH_OUTSIDE_WORKSPACE",
      text: "Path '../' is not within the workspace: it leads outside '.'.",
    });
  });

  it("never searches skillgate's own state or the skill copies under .ucagent", async () => {
    const hit = await callTool(ws.session, "SearchText", { pattern: "gate-skill" });
    expect(hit).toMatchObject({ isError: true, code: "MATCH_NOT_FOUND" });
  });
});
