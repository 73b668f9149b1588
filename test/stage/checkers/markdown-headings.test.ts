// Checker `markdown_headings` (checkers/markdown-headings.ts) on real files, with the exact messages the agent sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckerFixture, type CheckerRow, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("markdown_headings", () => {
  it.each<CheckerRow>([
    [
      "headings ok",
      "markdown_headings",
      { path: "{OUT}/report.md", headings: ["# Report", " ## Summary "] },
      true,
      "markdown_headings: out/report.md has all 2 heading(s).",
    ],
    [
      "headings missing",
      "markdown_headings",
      { path: "out/report.md", headings: ["# Report", "## Findings", "## Fix"] },
      false,
      "markdown_headings: out/report.md is missing the heading line(s) '## Findings', '## Fix'; add each as a line of its own, exactly as written.",
    ],
    [
      "headings file missing",
      "markdown_headings",
      { path: "out/none.md", headings: ["# A"] },
      false,
      "markdown_headings: out/none.md does not exist; create it as the stage task describes.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });
});
