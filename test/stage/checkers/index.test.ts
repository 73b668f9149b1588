// The checker registry and runner (checkers/index.ts): arg problems named by path, bad args and unknown kinds as outcomes, never throws.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKER_KINDS, checkerArgProblems } from "../../../runtime/stage/index.js";
import { type CheckerFixture, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("checkers", () => {
  it("bad args come back as a failed outcome naming the problem", async () => {
    expect(await fx.run("regex_count", { path: "x", pattern: "[" })).toEqual({
      ok: false,
      message:
        "regex_count: the checker's args are invalid (args: pattern is not a valid regular expression); the workflow config must be fixed.",
    });
    expect(checkerArgProblems({ kind: "command", args: { argv: [] } })).toEqual([
      "args.argv: Too small: expected array to have >=1 items",
    ]);
  });

  it("an unknown kind is named with the known ones; every registered kind answers to its own name", () => {
    expect(checkerArgProblems({ kind: "shell", args: {} })).toEqual([
      "unknown checker kind 'shell' (known: file_exists, markdown_headings, markdown_entries, regex_count, json_schema, command)",
    ]);
    for (const [name, kind] of Object.entries(CHECKER_KINDS)) expect(kind.kind).toBe(name);
  });

  it("placeholders in args are expanded before they are checked, in nested lists too", async () => {
    expect(await fx.run("file_exists", { paths: ["{OUT}/report.md", "{WORKSPACE}/out/bugs.md"] })).toEqual({
      ok: true,
      message: "file_exists: 2 path(s) present and non-empty.",
    });
    expect(await fx.run("file_exists", { path: "{DUT}/missing.txt" })).toEqual({
      ok: false,
      message: "file_exists: dut/missing.txt does not exist; create it as the stage task describes.",
    });
  });
});
