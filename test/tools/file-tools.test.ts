// The UCAgent file tools through the registry: exact texts, line blocks, newline keeping, search, races, config switch.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, makeFixture } from "./helpers.js";

let fixture: Fixture;
let session: OpenedSession;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const out = (name: string) => join(fixture.ws, "out", name);

beforeEach(async () => {
  fixture = makeFixture();
  session = await fixture.open();
  mkdirSync(join(fixture.ws, "out"), { recursive: true });
  mkdirSync(join(fixture.ws, "dut", "src"), { recursive: true });
  writeFileSync(
    join(fixture.ws, "dut", "src", "calc.py"),
    "def add(a, b):\n    return a - b\n\n# TODO: tests\n",
  );
  writeFileSync(join(fixture.ws, "dut", "README.md"), "# Calc\nTODO: docs\n");
});
afterEach(() => fixture.cleanup());

describe("EditTextFile", () => {
  it("creates, says when nothing changes, appends, and keeps a CRLF file CRLF", async () => {
    const created = await callTool(session, "EditTextFile", { path: "out/a.md", content: "one\n" });
    expect(created.text).toBe(
      `Created 'out/a.md' with 4 characters. SHA256: ${sha("")} -> ${sha("one\n")}.\n[DIFF]\n--- out/a.md(old)\n` +
        "+++ out/a.md(new)\n@@ -0,0 +1,1 @@\n+one\n",
    );
    const same = await callTool(session, "EditTextFile", { path: "out/a.md", content: "one\n" });
    expect(same.text).toBe(
      `File 'out/a.md' already has the requested content; no write was needed. SHA256: ${sha("one\n")}.`,
    );
    const appended = await callTool(session, "EditTextFile", {
      path: "out/a.md",
      content: "two\n",
      append: true,
    });
    expect(appended.text.split("\n")[0]).toBe(
      `Appended 4 characters to 'out/a.md'. SHA256: ${sha("one\n")} -> ${sha("one\ntwo\n")}.`,
    );
    writeFileSync(out("crlf.txt"), "a\r\nb\r\n");
    await callTool(session, "EditTextFile", { path: "out/crlf.txt", content: "x\ny\n" });
    expect(readFileSync(out("crlf.txt"), "utf8")).toBe("x\r\ny\r\n");
  });

  it("creates missing parent folders inside OUT and refuses a binary file", async () => {
    expect(
      (await callTool(session, "EditTextFile", { path: "out/deep/er/x.txt", content: "x" })).isError,
    ).toBe(false);
    expect(readFileSync(out("deep/er/x.txt"), "utf8")).toBe("x");
    writeFileSync(out("bin.dat"), Buffer.from([0, 1, 2]));
    const binary = await callTool(session, "EditTextFile", { path: "out/bin.dat", content: "x" });
    expect(binary).toMatchObject({
      isError: true,
      code: "NOT_TEXT",
      text: "File out/bin.dat is not a text file.",
    });
    expect(readFileSync(out("bin.dat"))).toEqual(Buffer.from([0, 1, 2]));
  });

  it("parallel appends to one file all land (calls on one path are serialised), 5 rounds", async () => {
    for (let round = 0; round < 5; round++) {
      rmSync(out("log.txt"), { force: true });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          callTool(session, "EditTextFile", { path: "out/log.txt", content: `line ${i}\n`, append: true }),
        ),
      );
      expect(results.filter((result) => result.isError)).toEqual([]);
      const lines = readFileSync(out("log.txt"), "utf8").trimEnd().split("\n").sort();
      expect(lines).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`).sort());
    }
  });
});

describe("ReplaceStringInFile and DeleteTextLines", () => {
  beforeEach(() => writeFileSync(out("r.txt"), "a\nb\na\nc\n"));

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
    const result = await callTool(session, "ReplaceStringInFile", { path: "out/r.txt", ...args });
    expect(result).toMatchObject({ isError: true, code, text });
    expect(readFileSync(out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
  });

  it("replaces inside a line block, and a dry run writes nothing", async () => {
    const dry = await callTool(session, "ReplaceStringInFile", {
      path: "out/r.txt",
      old_string: "a",
      new_string: "z",
      line_blocks: [[2, 3]],
      dry_run: true,
    });
    expect(dry.text.split("\n")[0]).toBe(
      `Dry run successful for out/r.txt. SHA256 would change from ${sha("a\nb\na\nc\n")} to ${sha("a\nb\nz\nc\n")}.`,
    );
    expect(readFileSync(out("r.txt"), "utf8")).toBe("a\nb\na\nc\n");
    const done = await callTool(session, "ReplaceStringInFile", {
      path: "out/r.txt",
      old_string: "a",
      new_string: "z",
      line_blocks: [[2, 3]],
    });
    expect(done.text.split("\n")[0]).toBe(
      "Successfully replaced 1 occurrence of the specified string in out/r.txt within line_blocks [2-3]. " +
        `SHA256: ${sha("a\nb\na\nc\n")} -> ${sha("a\nb\nz\nc\n")}.`,
    );
    expect(readFileSync(out("r.txt"), "utf8")).toBe("a\nb\nz\nc\n");
  });

  it("deletes merged line blocks against the original numbering", async () => {
    const result = await callTool(session, "DeleteTextLines", {
      path: "out/r.txt",
      line_blocks: [1, [2, 2], 4],
    });
    expect(result.text.split("\n")[0]).toBe(
      `Deleted 3 physical lines from 'out/r.txt' in normalized blocks [1-2, 4]. 1 lines remain. SHA256: ` +
        `${sha("a\nb\na\nc\n")} -> ${sha("a\n")}. Read the updated file, then use ReplaceStringInFile for remaining precise content edits.`,
    );
    expect(readFileSync(out("r.txt"), "utf8")).toBe("a\n");
    const missing = await callTool(session, "DeleteTextLines", { path: "out/none.txt", line_blocks: [1] });
    expect(missing.text).toBe("File out/none.txt does not exist in workspace. Please create it first.");
  });
});

describe("listing and search", () => {
  it("FindFiles matches file names shell-style, skipping .ucagent", async () => {
    const found = await callTool(session, "FindFiles", { pattern: "*.py" });
    expect(found.text).toBe("Found 1 matching files.\n\ndut/src/calc.py");
    const none = await callTool(session, "FindFiles", { pattern: "SKILL.md" });
    expect(none).toMatchObject({
      isError: true,
      text: "No matches found for 'SKILL.md' in the specified directory().",
    });
  });

  it("SearchText groups matches per file with context, plain and regex", async () => {
    const plain = await callTool(session, "SearchText", { pattern: "todo", directory: "dut" });
    expect(plain.text).toBe(
      "Found 2 matching lines in 2 files.\n\n" +
        "dut/README.md:\n```text\n1: # Calc\n2: TODO: docs\n```\n\n" +
        "dut/src/calc.py:\n```text\n3: \n4: # TODO: tests\n```",
    );
    const regex = await callTool(session, "SearchText", {
      pattern: "return a [-+] b",
      use_regex: true,
      context_before: 0,
      context_after: 0,
    });
    expect(regex.text).toBe(
      "Found 1 matching line in 1 file.\n\ndut/src/calc.py:\n```text\n2:     return a - b\n```",
    );
    const bad = await callTool(session, "SearchText", { pattern: "(", use_regex: true });
    expect(bad.text).toMatch(/^Invalid regex pattern '\(': /);
  });

  it("a catastrophic regex is cut off by its timeout instead of hanging the server", async () => {
    writeFileSync(out("redos.txt"), `${"a".repeat(40)}!\n`);
    const result = await callTool(session, "SearchText", {
      pattern: "^(a+)+$",
      directory: "out/redos.txt",
      use_regex: true,
      regex_timeout_ms: 20,
    });
    expect(result).toMatchObject({
      isError: true,
      code: "REGEX_TIMEOUT",
      text: "Regular expression timed out after 20 ms per line while searching out/redos.txt. Use a more specific pattern or plain-text search.",
    });
  });

  it("GetFileInfo reports a text file's lines and sha256, and a folder's contents", async () => {
    const file = await callTool(session, "GetFileInfo", { path: "dut/src/calc.py", include_stats: false });
    const body = "def add(a, b):\n    return a - b\n\n# TODO: tests\n";
    expect(file.text).toBe(
      `File information for 'dut/src/calc.py':\n\nPath: dut/src/calc.py\nAbsolute path: ${join(fixture.ws, "dut", "src", "calc.py")}\n` +
        `Type: File\nSize: ${body.length} B (${body.length} bytes)\nFile type: Text\nLine count: 4\nSHA256: ${sha(body)}`,
    );
    const dir = await callTool(session, "GetFileInfo", { path: "dut" });
    expect(dir.text).toContain("Type: Directory\nContains: 1 files, 1 directories\nPermissions: drwx");
  });
});

describe("CreateDirectory, CopyFile, MoveFile, DeleteFile", () => {
  it("answers UCAgent's texts for existing targets and wrong kinds", async () => {
    expect((await callTool(session, "CreateDirectory", { path: "out/d" })).text).toBe(
      "Directory out/d created successfully.",
    );
    expect((await callTool(session, "CreateDirectory", { path: "out/d" })).text).toBe(
      "Directory out/d already exists.",
    );
    expect((await callTool(session, "CreateDirectory", { path: "out/d", exist_ok: false })).text).toBe(
      "Directory out/d already exists. Use exist_ok=True to ignore this error.",
    );
    expect(
      (await callTool(session, "CopyFile", { source_path: "dut/README.md", dest_path: "out/R.md" })).text,
    ).toBe("File copied successfully from 'dut/README.md' to 'out/R.md' (18 B)");
    expect(
      (await callTool(session, "CopyFile", { source_path: "dut/README.md", dest_path: "out/R.md" })).text,
    ).toBe("Destination file out/R.md already exists. Use overwrite=True to replace it.");
    expect(
      (await callTool(session, "MoveFile", { source_path: "out/R.md", dest_path: "out/d/R.md" })).text,
    ).toBe("File moved successfully from 'out/R.md' to 'out/d/R.md' (18 B)");
    expect((await callTool(session, "DeleteFile", { path: "out/d" })).text).toBe(
      "Path out/d is a directory, but 'is_dir' is False. Please set 'is_dir' to True to delete directories.",
    );
    expect((await callTool(session, "DeleteFile", { path: "out/d", is_dir: true })).text).toBe(
      "Directory out/d is not empty. Use 'recursive=True' to delete non-empty directories.",
    );
    const stale = await callTool(session, "DeleteFile", { path: "out/d/R.md", expected_sha256: sha("") });
    expect(stale.code).toBe("FILE_CHANGED");
    expect((await callTool(session, "DeleteFile", { path: "out/d/R.md" })).text).toBe(
      "File out/d/R.md deleted successfully.",
    );
    expect((await callTool(session, "DeleteFile", { path: "out/d", is_dir: true })).text).toBe(
      "Empty directory out/d deleted successfully.",
    );
  });
});

describe("the file tools do not depend on skills", () => {
  it.each([
    ["skills disabled", { useSkill: false }],
    ["skill folder missing", {}],
  ])("%s: EditTextFile and PathList work", async (name, options) => {
    fixture.cleanup();
    fixture = makeFixture(options);
    session = await fixture.open();
    if (name === "skill folder missing") rmSync(session.paths.skillsDir, { recursive: true, force: true });
    expect((await callTool(session, "EditTextFile", { path: "out/x.md", content: "x\n" })).isError).toBe(
      false,
    );
    expect((await callTool(session, "PathList", { path: "out" })).text).toContain("out/x.md    (type: text");
  });

  it("file_tools: false turns them off for callTool too", async () => {
    session.config.file_tools = false;
    const result = await callTool(session, "EditTextFile", { path: "out/x.md", content: "x" });
    expect(result).toMatchObject({
      isError: true,
      code: "TOOL_DISABLED",
      text: "EditTextFile is turned off here (file_tools: false or serve --no-file-tools): the host brings its own file tools, so use those.",
    });
  });
});
