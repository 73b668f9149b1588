// `skillgate serve` over stdio with a FIFO planted at manifest.json while it runs: the tools answer the refusal, they do not hang.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { makeFixture } from "../tools/helpers.js";
import { call, servePerTest } from "./helpers.js";

const served = servePerTest();

describe("serve over stdio: a FIFO planted at manifest.json after start", () => {
  it("Check answers NOT_REGULAR_FILE and Status reports the ledger refused, both without waiting", async () => {
    const fixture = makeFixture();
    const { client } = await served.serve(fixture);
    expect((await call(client, "Status")).isError).toBe(false);

    const rel = ".ucagent/skillgate/manifest.json";
    const manifest = join(fixture.ws, rel);
    rmSync(manifest);
    execFileSync("mkfifo", [manifest]);
    const why =
      "is a FIFO (named pipe), not a regular file: skillgate reads its state and config only from regular files (reading anything else could block or never end); fix: replace it with the regular file it should be, or remove it";
    // Well under the test's 60 s: a hang fails with the SDK's request timeout, not as a vitest timeout.
    const within = { timeout: 15_000 };
    const check = (await client.callTool(
      { name: "Check", arguments: {} },
      undefined,
      within,
    )) as CallToolResult;
    expect(check.isError).toBe(true);
    expect(check.content).toEqual([{ type: "text", text: `${rel} ${why}` }]);
    expect(check.structuredContent).toEqual({
      code: "NOT_REGULAR_FILE",
      error: { code: "NOT_REGULAR_FILE", message: `${manifest} ${why}` },
      details: { path: manifest, kind: "FIFO (named pipe)" },
    });
    const status = (await client.callTool(
      { name: "Status", arguments: {} },
      undefined,
      within,
    )) as CallToolResult;
    expect(status.isError).toBeFalsy();
    expect((status.structuredContent as { ledger: unknown }).ledger).toEqual({
      health: "refused",
      problem: { code: "NOT_REGULAR_FILE", message: `${manifest} ${why}` },
    });
  });
});
