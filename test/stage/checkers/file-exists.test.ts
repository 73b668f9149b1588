// Checker `file_exists` (checkers/file-exists.ts) on real files: present, missing, empty, an empty folder, a FIFO never opened.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckerFixture, type CheckerRow, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("file_exists", () => {
  it.each<CheckerRow>([
    [
      "file_exists ok",
      "file_exists",
      { paths: ["out/report.md", "{OUT}/bugs.md"] },
      true,
      "file_exists: 2 path(s) present and non-empty.",
    ],
    [
      "file_exists missing, empty file, empty folder",
      "file_exists",
      { paths: ["out/nope.md", "out/empty.md", "out/empty-dir"] },
      false,
      "file_exists: out/nope.md does not exist; create it as the stage task describes; out/empty.md is empty; write its content; out/empty-dir is an empty folder; put the stage's output in it.",
    ],
    [
      "file_exists on a FIFO (never opened, so it cannot block)",
      "file_exists",
      { paths: ["out/pipe.md", "out/report.md"] },
      false,
      "file_exists: out/pipe.md is a fifo, not a regular file; write the output as a regular file.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });
});
