// The file tools' shared parts: fnmatch (checked against Python's), sizes, newlines, diffs, the write precheck, the path lock.
import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  convertNewlines,
  diffText,
  filePolicy,
  fnmatchRegExp,
  humanSize,
  MAX_DIFF_CHARS,
  precheckWrite,
  withPathLock,
  writeRefusedText,
} from "../../runtime/tools/file-common.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("fnmatchRegExp", () => {
  const cases: [string, string][] = [
    ["*.py", "calc.py"],
    ["*.py", "calc.pyc"],
    ["?alc.py", "calc.py"],
    ["[ch]alc.py", "halc.py"],
    ["[!c]alc.py", "calc.py"],
    ["[!c]alc.py", "xalc.py"],
    ["a[", "a["],
    ["a.b", "axb"],
    ["*", ".hidden"],
    ["[a-c]*", "b.txt"],
    ["[]]x", "]x"],
    ["[!]]x", "]x"],
    ["[!]]x", "ax"],
    ["[[]x", "[x"],
    ["x^y", "x^y"],
    ["f(1)+", "f(1)+"],
    ["*.MD", "readme.md"],
  ];

  it("matches exactly as Python's fnmatch.fnmatchcase on every case", () => {
    const python = execFileSync(
      "python3",
      [
        "-c",
        "import fnmatch,json,sys; print(json.dumps([fnmatch.fnmatchcase(n, p) for p, n in json.load(sys.stdin)]))",
      ],
      { input: JSON.stringify(cases), encoding: "utf8" },
    );
    const expected = JSON.parse(python) as boolean[];
    expect(cases.map(([pattern, name]) => fnmatchRegExp(pattern).test(name))).toEqual(expected);
    expect(expected).toContain(true);
    expect(expected).toContain(false);
  });

  it("ignoreCase matches lowered text as fnmatch does", () => {
    expect(fnmatchRegExp("*.MD", true).test("readme.md")).toBe(true);
  });
});

describe("humanSize", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.00 KB"],
    [3168, "3.09 KB"],
    [1024 ** 2, "1.00 MB"],
    [5 * 1024 ** 3, "5.00 GB"],
  ])("%i bytes is %s", (size, text) => {
    expect(humanSize(size)).toBe(text);
  });
});

describe("convertNewlines and diffText", () => {
  it("converts any newline mix to the file's convention", () => {
    expect(convertNewlines("a\r\nb\rc\n", "\n")).toBe("a\nb\nc\n");
    expect(convertNewlines("a\nb\r\n", "\r\n")).toBe("a\r\nb\r\n");
    expect(convertNewlines("a\nb", "\r")).toBe("a\rb");
  });

  it("says when nothing changed, labels old/new like UCAgent, and cuts a long diff saying how much was left out", () => {
    expect(diffText("out/a.md", "x\n", "x\n")).toBe("\n[DIFF]\nNo changes detected.");
    expect(diffText("out/a.md", "one\n", "two\n")).toBe(
      "\n[DIFF]\n--- out/a.md(old)\n+++ out/a.md(new)\n@@ -1,1 +1,1 @@\n-one\n+two\n",
    );
    const long = diffText("out/a.md", "", `${"x".repeat(100)}\n`.repeat(400));
    expect(long.startsWith("\n[DIFF]\n--- out/a.md(old)\n")).toBe(true);
    expect(long).toMatch(/\n\.\.\. \[DIFF truncated; \d+ characters omitted\]$/);
    expect(long.length).toBeLessThan(MAX_DIFF_CHARS + 100);
  });
});

describe("precheckWrite and filePolicy", () => {
  it.each([
    [
      "/etc/x",
      "PATH_OUTSIDE_WORKSPACE",
      "Path '/etc/x' must be relative to the workspace; absolute paths are not allowed.",
    ],
    [
      "C:\\x",
      "PATH_OUTSIDE_WORKSPACE",
      "Path 'C:\\x' must be relative to the workspace; absolute paths are not allowed.",
    ],
    ["out/../../x", "PATH_OUTSIDE_WORKSPACE", "Path 'out/../../x' is not within the workspace."],
    [".", "INVALID_ARGS", "The workspace root cannot be modified directly."],
    [
      "out/../dut/x",
      "WRITE_NOT_ALLOWED",
      "Path 'out/../dut/x' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    ],
  ])("refuses %s with %s before any change", async (path, code, text) => {
    const session = ws.session;
    expect(await precheckWrite(session, filePolicy(session), path)).toMatchObject({
      isError: true,
      code,
      text,
    });
  });

  it("refuses to write through a symbolic link, and allows a plain new file in OUT", async () => {
    const session = ws.session;
    writeFileSync(ws.out("real.txt"), "x");
    symlinkSync("real.txt", ws.out("link.txt"));
    expect(await precheckWrite(session, filePolicy(session), "out/link.txt")).toMatchObject({
      isError: true,
      code: "PATH_OUTSIDE_WORKSPACE",
      text: "Refusing to modify path 'out/link.txt' through a symbolic link.",
    });
    expect(await precheckWrite(session, filePolicy(session), "out/new/file.txt")).toBeNull();
  });

  it("ignores write_dirs entries outside the workspace and says so in the refusal", () => {
    const session = ws.session;
    session.config.write_dirs = ["out", "/tmp", "../elsewhere"];
    const policy = filePolicy(session);
    expect(policy).toMatchObject({ allow: ["out"], ignored: ["/tmp", "../elsewhere"] });
    expect(writeRefusedText(policy, "dut/x")).toBe(
      "Path 'dut/x' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state) (write_dirs/un_write_dirs entries outside the workspace are ignored: /tmp, ../elsewhere). Write the stage outputs inside an allowed folder.",
    );
  });
});

describe("withPathLock", () => {
  it("runs calls on one path one after another, calls on other paths meanwhile, and survives a failure", async () => {
    const session = ws.session;
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = withPathLock(session, ["out/a.txt"], async () => {
      events.push("a1 start");
      await gate;
      events.push("a1 end");
      throw new Error("a1 failed");
    });
    const second = withPathLock(session, ["out/./a.txt"], async () => {
      events.push("a2");
      return "a2 done";
    });
    const other = await withPathLock(session, ["out/b.txt"], async () => {
      events.push("b");
      return "b done";
    });
    expect(other).toBe("b done");
    expect(events).toEqual(["a1 start", "b"]);
    release();
    await expect(first).rejects.toThrow("a1 failed");
    expect(await second).toBe("a2 done");
    expect(events).toEqual(["a1 start", "b", "a1 end", "a2"]);
  });
});
