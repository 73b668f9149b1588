// The temp-root sweep: what a test file leaves is removed (read-only copies included), what it cleaned is not touched.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { removeLeftTempRoots, tempRoot } from "./temp-root.js";

describe("removeLeftTempRoots", () => {
  it("removes the roots left behind, read-only folders inside included, and forgets them", () => {
    const left = tempRoot("skillgate-sweep-");
    mkdirSync(left.path("pack", "skill"), { recursive: true });
    writeFileSync(left.path("pack", "skill", "SKILL.md"), "x");
    chmodSync(left.path("pack", "skill"), 0o555);
    chmodSync(left.path("pack"), 0o555);
    const cleaned = tempRoot("skillgate-sweep-");
    cleaned.cleanup();
    // Another process's folder at the cleaned path must survive the sweep: it is no longer this file's.
    mkdirSync(cleaned.dir);
    expect(removeLeftTempRoots()).toEqual([]);
    expect(existsSync(left.dir)).toBe(false);
    expect(existsSync(cleaned.dir)).toBe(true);
    cleaned.cleanup();
    mkdirSync(left.dir);
    expect(removeLeftTempRoots()).toEqual([]);
    expect(existsSync(left.dir)).toBe(true);
    left.cleanup();
  });
});
