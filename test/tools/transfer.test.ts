// What CopyFile and MoveFile share: the overwrite default, the source-not-a-file results, the destination-exists result.
import { describe, expect, it } from "vitest";
import { destinationExists, overwriteArg, sourceNotAFile } from "../../runtime/tools/transfer.js";

describe("transfer results", () => {
  it("overwrite defaults to false and takes only booleans", () => {
    expect(overwriteArg.parse(undefined)).toBe(false);
    expect(overwriteArg.parse(true)).toBe(true);
    expect(overwriteArg.safeParse("yes").success).toBe(false);
  });

  it("a missing source is FILE_NOT_FOUND, a folder or other kind NOT_REGULAR_FILE, both naming the path", () => {
    expect(sourceNotAFile(null, "out/a")).toMatchObject({
      isError: true,
      code: "FILE_NOT_FOUND",
      text: "Source file out/a does not exist.",
      structured: { path: "out/a" },
    });
    expect(sourceNotAFile({ kind: "directory" } as never, "out/d")).toMatchObject({
      isError: true,
      code: "NOT_REGULAR_FILE",
      text: "Source file error: Path out/d is not a file in workspace.",
    });
  });

  it("an existing destination says how to replace it", () => {
    expect(destinationExists("out/b")).toMatchObject({
      isError: true,
      code: "FILE_EXISTS",
      text: "Destination file out/b already exists. Use overwrite=True to replace it.",
      structured: { path: "out/b" },
    });
  });
});
