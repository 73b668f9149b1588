// The one "inside" rule (runtime/contracts/inside.ts): names that merely start with two dots ("..b", "...") stay inside.
import { describe, expect, it } from "vitest";
import { insideRelative, isInside, shownBelow } from "../../runtime/contracts/index.js";

describe("insideRelative / isInside / shownBelow", () => {
  it.each([
    ["/w", "/w", "", true, "/w"],
    ["/w", "/w/a/b", "a/b", true, "a/b"],
    ["/w", "/w/..b", "..b", true, "..b"],
    ["/w", "/w/..b/c.md", "..b/c.md", true, "..b/c.md"],
    ["/w", "/w/...", "...", true, "..."],
    ["/w", "/w/a/../..b", "..b", true, "..b"],
    ["/w", "/w/..", null, false, "/w/.."],
    ["/w", "/w/../x", null, false, "/w/../x"],
    ["/w", "/wx", null, false, "/wx"],
    ["/w", "/", null, false, "/"],
    ["/w/a", "/w", null, false, "/w"],
    ["/w", "/w/./a", "a", true, "a"],
  ])("(%s, %s): relative %j, inside %s, shown %s", (parent, child, rel, inside, shown) => {
    expect(insideRelative(parent, child)).toBe(rel);
    expect(isInside(parent, child)).toBe(inside);
    expect(shownBelow(parent, child)).toBe(shown);
  });
});
