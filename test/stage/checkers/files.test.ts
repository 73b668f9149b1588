// Path helpers of the checkers (checkers/files.ts): paths resolved and shown workspace-relative, each read failure in words the agent can act on.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SkillgateError } from "../../../runtime/errors.js";
import {
  CHECKER_MAX_BYTES,
  displayPath,
  fileProblem,
  readTextArg,
  resolveArgPath,
  splitLines,
} from "../../../runtime/stage/checkers/files.js";
import type { CheckerContext } from "../../../runtime/stage/index.js";
import { tempRoot } from "../../support/workspace.js";

const root = tempRoot("skillgate-checker-files-", { realpath: true });
const outside = tempRoot("skillgate-checker-outside-", { realpath: true });
afterAll(() => {
  root.cleanup();
  outside.cleanup();
});
const ctx: CheckerContext = {
  workspace: root.dir,
  runtime: { workspace: root.dir, OUT: root.path("out"), DUT: root.path("dut") },
};

describe("resolveArgPath and displayPath", () => {
  it("relative args resolve against the workspace; paths inside are shown relative, others absolute", () => {
    expect(resolveArgPath("out/a.md", ctx)).toBe(root.path("out", "a.md"));
    expect(resolveArgPath("/etc/hosts", ctx)).toBe("/etc/hosts");
    expect(displayPath(root.path("out", "a.md"), ctx)).toBe("out/a.md");
    expect(displayPath(root.dir, ctx)).toBe(root.dir);
    expect(displayPath("/etc/hosts", ctx)).toBe("/etc/hosts");
    expect(displayPath(`${root.dir}-sibling/a.md`, ctx)).toBe(`${root.dir}-sibling/a.md`);
  });
});

describe("splitLines", () => {
  it.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a"]],
    ["a\r\nb\r\n", ["a", "b"]],
    ["a\n\n", ["a", ""]],
  ])("%j", (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });
});

describe("readTextArg", () => {
  mkdirSync(root.path("out", "folder"), { recursive: true });
  writeFileSync(root.path("out", "ok.md"), "# Title\n");
  writeFileSync(outside.path("secret.md"), "host secret\n");
  symlinkSync(outside.path("secret.md"), root.path("out", "escape.md"));
  execFileSync("mkfifo", [root.path("out", "pipe.md")]);
  writeFileSync(root.path("out", "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(root.path("out", "huge.md"), "");
  truncateSync(root.path("out", "huge.md"), CHECKER_MAX_BYTES + 1);

  it("reads a UTF-8 file inside the workspace", async () => {
    expect(await readTextArg("k", "{OUT}/ok.md".replace("{OUT}", "out"), ctx)).toEqual({
      ok: true,
      text: "# Title\n",
      shown: "out/ok.md",
    });
  });

  it.each([
    ["missing", "out/none.md", "k: out/none.md does not exist; create it as the stage task describes."],
    [
      "a link out of the workspace",
      "out/escape.md",
      `k: out/escape.md leads outside the workspace (to ${outside.path("secret.md")}); checkers read only files inside it, so replace the link with the file itself.`,
    ],
    [
      "an absolute path outside",
      outside.path("secret.md"),
      `k: ${outside.path("secret.md")} is outside the workspace; checkers read only files inside it (fix the stage config).`,
    ],
    ["a folder", "out/folder", "k: out/folder is a folder, expected a file."],
    ["a FIFO", "out/pipe.md", "k: out/pipe.md is a fifo, not a regular file; write a regular file there."],
    [
      "over the size cap",
      "out/huge.md",
      `k: out/huge.md is ${CHECKER_MAX_BYTES + 1} bytes, over the ${CHECKER_MAX_BYTES}-byte limit of checkers.`,
    ],
    ["not UTF-8", "out/latin1.md", "k: out/latin1.md is not UTF-8 text."],
  ])("%s: the failure says what and how to fix it", async (_name, path, message) => {
    expect(await readTextArg("k", path, ctx)).toEqual({ ok: false, message });
  });
});

describe("fileProblem", () => {
  it("an error that is not ours, or a code without its own wording, still names the file and the cause", () => {
    expect(fileProblem(new Error("boom"), "out/a.md")).toBe("cannot read out/a.md (Error: boom)");
    expect(
      fileProblem(new SkillgateError("FILE_IO_FAILED", "x", { errno: "EIO" }), join("out", "a.md")),
    ).toBe("cannot read out/a.md (EIO)");
    expect(fileProblem(new SkillgateError("PERMISSION_DENIED", "x", {}), "out/a.md")).toBe(
      "cannot read out/a.md (PERMISSION_DENIED)",
    );
  });
});
