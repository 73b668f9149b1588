// The frame of the text-edit tools: the write precheck before the edit runs, NOT_TEXT and file errors as results, stale reads.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { okResult } from "../../runtime/tools/results.js";
import {
  changedWhilePreparing,
  editTextUnderLock,
  missingFileResult,
} from "../../runtime/tools/text-edit.js";
import { sha, useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("editTextUnderLock", () => {
  it("never runs the edit for a refused path", async () => {
    let ran = false;
    const refused = await editTextUnderLock(ws.session, "dut/x.md", async () => {
      ran = true;
      return okResult("edited", {});
    });
    expect(ran).toBe(false);
    expect(refused).toMatchObject({ isError: true, code: "WRITE_NOT_ALLOWED" });
  });

  it("runs the edit for an allowed path and returns its result", async () => {
    expect(
      await editTextUnderLock(ws.session, "out/a.md", async () => okResult("edited", { n: 1 })),
    ).toMatchObject({
      isError: false,
      text: "edited",
      structured: { n: 1 },
    });
  });

  it("turns NOT_TEXT into 'File … is not a text file.' and another file error into its result; a bug still throws", async () => {
    const notText = await editTextUnderLock(ws.session, "out/a.bin", async () => {
      throw new SkillgateError("NOT_TEXT", "binary");
    });
    expect(notText).toMatchObject({
      isError: true,
      code: "NOT_TEXT",
      text: "File out/a.bin is not a text file.",
    });
    const io = await editTextUnderLock(ws.session, "out/a.md", async () => {
      throw new SkillgateError("FILE_IO_FAILED", "disk gone");
    });
    expect(io).toMatchObject({ isError: true, code: "FILE_IO_FAILED", text: "disk gone" });
    await expect(
      editTextUnderLock(ws.session, "out/a.md", async () => {
        throw new TypeError("our bug");
      }),
    ).rejects.toThrow("our bug");
  });
});

describe("missingFileResult and changedWhilePreparing", () => {
  it("a missing file says to create it first", () => {
    expect(missingFileResult("out/none.md")).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "File out/none.md does not exist in workspace. Please create it first.",
      structured: { path: "out/none.md" },
    });
  });

  it("is null while the file still has the hash read, FILE_CHANGED once another writer changed it", async () => {
    writeFileSync(ws.out("r.md"), "one\n");
    expect(await changedWhilePreparing(ws.session, "out/r.md", sha("one\n"), "the replacement")).toBeNull();
    writeFileSync(ws.out("r.md"), "two\n");
    expect(
      await changedWhilePreparing(ws.session, "out/r.md", sha("one\n"), "the replacement"),
    ).toMatchObject({
      isError: true,
      code: "FILE_CHANGED",
      text: "File out/r.md changed while the replacement was being prepared. Read it again and retry.",
    });
  });
});
