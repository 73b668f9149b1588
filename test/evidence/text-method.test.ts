// The text-method rule written once: a script-less skill counts as used when the accepted claim says use: true.
import { describe, expect, it } from "vitest";
import { countsAsUsed, isTextMethod, type UsageClaim } from "../../runtime/evidence/index.js";

describe("text-method rule", () => {
  it("a skill without scripts (or unknown to the catalog) is a text method", () => {
    expect(isTextMethod({ scripts: [] })).toBe(true);
    expect(isTextMethod(undefined)).toBe(true);
    expect(isTextMethod({ scripts: ["run.py"] })).toBe(false);
  });

  const claimUse: UsageClaim = { list: true, read: true, use: true };
  const claimNotUsed: UsageClaim = { list: true, read: true, use: false, reason: "not needed" };
  const table: [string, boolean, boolean, UsageClaim | undefined, boolean][] = [
    ["observed use counts for a scripted skill", true, false, undefined, true],
    ["observed use counts for a text method", true, true, undefined, true],
    ["a claim of use counts for a text method", false, true, claimUse, true],
    ["a claim of use never counts for a scripted skill", false, false, claimUse, false],
    ["use: false is not use", false, true, claimNotUsed, false],
    ["no claim, no observation: not used", false, true, undefined, false],
  ];
  it.each(table)("%s", (_name, observed, textMethod, claim, expected) => {
    expect(countsAsUsed(observed, textMethod, claim)).toBe(expected);
  });
});
