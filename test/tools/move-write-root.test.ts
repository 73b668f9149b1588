// MoveFile never moves a write_dirs folder away nor replaces one (or another folder) by a move: exact refusals through the registry, `skillgate call` and the MCP client.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { moveWorkspacePath } from "../../runtime/workspace/index.js";
import { flags, skillgate } from "../cli/helpers.js";
import { call, connectStdio, type StdioConnection } from "../mcp/helpers.js";
import { type Fixture, makeFixture } from "./helpers.js";

const REPLACE_REPORTS =
  "Path 'out/reports' is a writable root folder (write_dirs) and cannot be replaced by a move; move the file into it instead, as 'out/reports/a.txt'.";
const REPLACE_OUT =
  "Path 'out' is a writable root folder (write_dirs) and cannot be replaced by a move; move the file into it instead, as 'out/a.txt'.";

// write_dirs: out/ and out/reports/ (not made yet: a move must not put a file in its place).
const CASES = [
  [{ source_path: "out/a.txt", dest_path: "out/reports" }, "WRITE_NOT_ALLOWED", REPLACE_REPORTS],
  [
    { source_path: "out/a.txt", dest_path: "out/reports", overwrite: true },
    "WRITE_NOT_ALLOWED",
    REPLACE_REPORTS,
  ],
  [{ source_path: "out/d/a.txt", dest_path: "out" }, "WRITE_NOT_ALLOWED", REPLACE_OUT],
  [
    { source_path: "out/d/a.txt", dest_path: "./dut/../out/", overwrite: true },
    "WRITE_NOT_ALLOWED",
    "Path './dut/../out/' (out) is a writable root folder (write_dirs) and cannot be replaced by a move; move the file into it instead, as 'out/a.txt'.",
  ],
  [
    { source_path: "out/a.txt", dest_path: "out/d", overwrite: true },
    "FILE_EXISTS",
    "Path 'out/d' is a folder and cannot be replaced by a move; move into it instead, as 'out/d/a.txt'.",
  ],
  [
    { source_path: "out", dest_path: "out/x" },
    "NOT_REGULAR_FILE",
    "Source file error: Path out is not a file in workspace.",
  ],
  [
    { source_path: "out/a.txt", dest_path: "dut/a.txt" },
    "WRITE_NOT_ALLOWED",
    "Destination file error: Path 'dut/a.txt' is not allowed to write, except in: out/, out/reports/ (write_dirs); never in dut/, guide_doc/, .ucagent/ (un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
  ],
] as const;

let fixture: Fixture;
const out = (name: string) => join(fixture.ws, "out", name);
beforeAll(async () => {
  fixture = makeFixture({ writeDirs: ["{OUT}", "{OUT}/reports"] });
  await fixture.open();
  mkdirSync(out("d"), { recursive: true });
  mkdirSync(join(fixture.ws, "dut"), { recursive: true });
}, 60_000);
afterAll(() => fixture?.cleanup());

/** Puts the table's files back and checks after a refusal that nothing moved. */
function seed(): void {
  writeFileSync(out("a.txt"), "a\n");
  writeFileSync(out("d/a.txt"), "d\n");
}
function nothingMoved(): void {
  expect(readFileSync(out("a.txt"), "utf8")).toBe("a\n");
  expect(readFileSync(out("d/a.txt"), "utf8")).toBe("d\n");
  expect(existsSync(out("reports"))).toBe(false);
  expect(existsSync(join(fixture.ws, "dut", "a.txt"))).toBe(false);
}

describe("MoveFile and the write_dirs folders", () => {
  it.each(CASES)("registry: refuses %j with %s", async (args, code, text) => {
    seed();
    const session = await fixture.open();
    expect(await callTool(session, "MoveFile", { ...args })).toMatchObject({ isError: true, code, text });
    nothingMoved();
  });

  it("`skillgate call MoveFile`: each refusal with its exact text, nothing moved", async () => {
    for (const [args, code, text] of CASES) {
      seed();
      const ran = await skillgate(
        ["call", "MoveFile", JSON.stringify(args), ...flags(fixture), "--json"],
        fixture.env,
      );
      const result = JSON.parse(ran.stdout) as { isError: boolean; code: string; text: string };
      expect({ isError: result.isError, code: result.code, text: result.text }, ran.stderr).toEqual({
        isError: true,
        code,
        text,
      });
      nothingMoved();
    }
  }, 180_000);

  describe("over the MCP client (stdio serve)", () => {
    let connection: StdioConnection | undefined;
    afterAll(async () => connection?.close());
    it("each refusal with its exact text, nothing moved; a file into the folder is moved", async () => {
      connection = await connectStdio(flags(fixture), fixture.env);
      for (const [args, , text] of CASES) {
        seed();
        expect(await call(connection.client, "MoveFile", { ...args })).toMatchObject({ isError: true, text });
        nothingMoved();
      }
      mkdirSync(out("reports"));
      const moved = await call(connection.client, "MoveFile", {
        source_path: "out/a.txt",
        dest_path: "out/reports/a.txt",
      });
      expect(moved.text).toBe("File moved successfully from 'out/a.txt' to 'out/reports/a.txt' (2 B)");
      expect(readFileSync(out("reports/a.txt"), "utf8")).toBe("a\n");
    }, 120_000);
  });
});

describe("moveWorkspacePath (the guard under every caller)", () => {
  it("refuses moving a write_dirs folder itself, checked on the real path through a linked parent", async () => {
    const ws = fixture.ws;
    mkdirSync(join(ws, "out", "reports"), { recursive: true });
    symlinkSync("out", join(ws, "alias"));
    const policy = { allow: ["out", "out/reports", "elsewhere"] };
    for (const from of ["out/reports", "alias/reports"]) {
      const error = await moveWorkspacePath(ws, from, "elsewhere", { policy }).then(
        () => null,
        (caught: { code?: string; message?: string }) => caught,
      );
      const named = from === "out/reports" ? "'out/reports'" : "'alias/reports' (out/reports)";
      expect({ code: error?.code, message: error?.message }).toEqual({
        code: "WRITE_NOT_ALLOWED",
        message: `Path ${named} is a writable root folder (write_dirs) and cannot be moved itself; move the files and folders inside it instead (PathList 'out/reports' lists them).`,
      });
    }
    expect(existsSync(join(ws, "out", "reports"))).toBe(true);
    expect(existsSync(join(ws, "elsewhere"))).toBe(false);
  });
});
