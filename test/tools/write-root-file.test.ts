// EditTextFile and CopyFile never put a file where a write_dirs folder belongs (made yet or not): exact refusals through the registry, `skillgate call` and the MCP client.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { flags, skillgate } from "../cli/helpers.js";
import { call, connectStdio, type StdioConnection } from "../mcp/helpers.js";
import { type Fixture, makeFixture } from "./helpers.js";

const refusal = (shown: string) =>
  `Path ${shown} is a writable root folder (write_dirs) and cannot be written as a file; write the file inside it instead, as 'out/reports/<file name>'.`;

// write_dirs: out/ and out/reports/ (not made yet: no tool may put a file in its place).
const CASES = [
  ["EditTextFile", { path: "out/reports", content: "x\n" }, refusal("'out/reports'")],
  [
    "EditTextFile",
    { path: "./out/reports/", content: "x\n", append: true },
    refusal("'./out/reports/' (out/reports)"),
  ],
  [
    "EditTextFile",
    { path: "dut/../out/reports", content: "" },
    refusal("'dut/../out/reports' (out/reports)"),
  ],
  [
    "CopyFile",
    { source_path: "out/a.txt", dest_path: "out/reports" },
    `Destination file error: ${refusal("'out/reports'")}`,
  ],
  [
    "CopyFile",
    { source_path: "out/a.txt", dest_path: "out/reports", overwrite: true },
    `Destination file error: ${refusal("'out/reports'")}`,
  ],
] as const;

let fixture: Fixture;
const out = (name: string) => join(fixture.ws, "out", name);
beforeAll(async () => {
  fixture = makeFixture({ writeDirs: ["{OUT}", "{OUT}/reports"] });
  await fixture.open();
  mkdirSync(join(fixture.ws, "out"), { recursive: true });
  mkdirSync(join(fixture.ws, "dut"), { recursive: true });
  writeFileSync(out("a.txt"), "a\n");
}, 60_000);
afterAll(() => fixture?.cleanup());

describe("file writes and the write_dirs folders", () => {
  it.each(CASES)("registry: %s %j is refused with WRITE_NOT_ALLOWED", async (tool, args, text) => {
    const session = await fixture.open();
    expect(await callTool(session, tool, { ...args })).toMatchObject({
      isError: true,
      code: "WRITE_NOT_ALLOWED",
      text,
    });
    expect(existsSync(out("reports"))).toBe(false);
  });

  it("`skillgate call`: each refusal with its exact text, nothing written", async () => {
    for (const [tool, args, text] of CASES) {
      const ran = await skillgate(
        ["call", tool, JSON.stringify(args), ...flags(fixture), "--json"],
        fixture.env,
      );
      const result = JSON.parse(ran.stdout) as { isError: boolean; code: string; text: string };
      expect({ isError: result.isError, code: result.code, text: result.text }, ran.stderr).toEqual({
        isError: true,
        code: "WRITE_NOT_ALLOWED",
        text,
      });
      expect(existsSync(out("reports"))).toBe(false);
    }
  }, 180_000);

  describe("over the MCP client (stdio serve)", () => {
    let connection: StdioConnection | undefined;
    afterAll(async () => connection?.close());
    it("each refusal with its exact text; once the folder is made, files go inside it", async () => {
      connection = await connectStdio(flags(fixture), fixture.env);
      for (const [tool, args, text] of CASES) {
        expect(await call(connection.client, tool, { ...args })).toMatchObject({ isError: true, text });
        expect(existsSync(out("reports"))).toBe(false);
      }
      const made = await call(connection.client, "CreateDirectory", { path: "out/reports" });
      expect(made.isError, made.text).toBeFalsy();
      const copied = await call(connection.client, "CopyFile", {
        source_path: "out/a.txt",
        dest_path: "out/reports/a.txt",
      });
      expect(copied.isError, copied.text).toBeFalsy();
      expect(readFileSync(out("reports/a.txt"), "utf8")).toBe("a\n");
    }, 120_000);
  });
});
