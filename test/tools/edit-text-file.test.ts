// EditTextFile through the registry: created/unchanged/appended texts, CRLF kept, parent folders, binary refused, parallel appends.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("EditTextFile", () => {
  it("creates, says when nothing changes, appends, and keeps a CRLF file CRLF", async () => {
    const created = await callTool(ws.session, "EditTextFile", { path: "out/a.md", content: "one\n" });
    expect(created.text).toBe(
      `Created 'out/a.md' with 4 characters. SHA256: ${sha("")} -> ${sha("one\n")}.\n[DIFF]\n--- out/a.md(old)\n` +
        "+++ out/a.md(new)\n@@ -0,0 +1,1 @@\n+one\n",
    );
    const same = await callTool(ws.session, "EditTextFile", { path: "out/a.md", content: "one\n" });
    expect(same.text).toBe(
      `File 'out/a.md' already has the requested content; no write was needed. SHA256: ${sha("one\n")}.`,
    );
    const appended = await callTool(ws.session, "EditTextFile", {
      path: "out/a.md",
      content: "two\n",
      append: true,
    });
    expect(appended.text.split("\n")[0]).toBe(
      `Appended 4 characters to 'out/a.md'. SHA256: ${sha("one\n")} -> ${sha("one\ntwo\n")}.`,
    );
    writeFileSync(ws.out("crlf.txt"), "a\r\nb\r\n");
    await callTool(ws.session, "EditTextFile", { path: "out/crlf.txt", content: "x\ny\n" });
    expect(readFileSync(ws.out("crlf.txt"), "utf8")).toBe("x\r\ny\r\n");
  });

  it("creates missing parent folders inside OUT and refuses a binary file", async () => {
    expect(
      (await callTool(ws.session, "EditTextFile", { path: "out/deep/er/x.txt", content: "x" })).isError,
    ).toBe(false);
    expect(readFileSync(ws.out("deep/er/x.txt"), "utf8")).toBe("x");
    writeFileSync(ws.out("bin.dat"), Buffer.from([0, 1, 2]));
    const binary = await callTool(ws.session, "EditTextFile", { path: "out/bin.dat", content: "x" });
    expect(binary).toMatchObject({
      isError: true,
      code: "NOT_TEXT",
      text: "File out/bin.dat is not a text file.",
    });
    expect(readFileSync(ws.out("bin.dat"))).toEqual(Buffer.from([0, 1, 2]));
  });

  it("parallel appends to one file all land (calls on one path are serialised), 5 rounds", async () => {
    for (let round = 0; round < 5; round++) {
      rmSync(ws.out("log.txt"), { force: true });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          callTool(ws.session, "EditTextFile", { path: "out/log.txt", content: `line ${i}\n`, append: true }),
        ),
      );
      expect(results.filter((result) => result.isError)).toEqual([]);
      const lines = readFileSync(ws.out("log.txt"), "utf8").trimEnd().split("\n").sort();
      expect(lines).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort());
    }
  });

  it.each([
    [
      "dut/x.md",
      "WRITE_NOT_ALLOWED",
      "Path 'dut/x.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
    [
      ".ucagent/x.md",
      "WRITE_NOT_ALLOWED",
      "Path '.ucagent/x.md' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
  ])("refuses to write %s (%s) and creates nothing", async (path, code, text) => {
    expect(await callTool(ws.session, "EditTextFile", { path, content: "x" })).toMatchObject({
      isError: true,
      code,
      text,
    });
    expect(existsSync(join(ws.fixture.ws, path))).toBe(false);
  });
});
