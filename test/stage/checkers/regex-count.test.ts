// Checker `regex_count` (checkers/regex-count.ts): match counts within [min, max], with the exact messages the agent sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckerFixture, type CheckerRow, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("regex_count", () => {
  it.each<CheckerRow>([
    [
      "regex ok",
      "regex_count",
      { path: "out/bugs.md", pattern: "^## BUG-", flags: "m", min: 2, max: 2 },
      true,
      "regex_count: out/bugs.md has 2 match(es) of /^## BUG-/m.",
    ],
    [
      "regex too few (min defaults to 1)",
      "regex_count",
      { path: "out/report.md", pattern: "TODO" },
      false,
      "regex_count: out/report.md has 0 match(es) of /TODO/; need at least 1. Add the missing content.",
    ],
    [
      "regex too many",
      "regex_count",
      { path: "out/bugs.md", pattern: "BUG-", max: 1 },
      false,
      "regex_count: out/bugs.md has 2 match(es) of /BUG-/; allowed at most 1. Remove the extra ones.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });
});
