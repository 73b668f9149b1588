// A descriptor the host leaked to skillgate (no close-on-exec) never reaches a hostile script: `skillgate call` and `serve` runs.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN, TSX } from "../mcp/helpers.js";
import { handingDescriptor } from "../support/process.js";
import { listeningUrl } from "../support/serve-listening.js";
import { REPO_ROOT } from "../tools/helpers.js";
import { type Bed, makeBed } from "./tool-bed.js";

// Lists every open descriptor with what it points at, then tries to write through each one above stderr.
const PROBE = `import os
for n in sorted(os.listdir("/proc/self/fd"), key=int):
    try:
        print("fd", n, os.readlink("/proc/self/fd/" + n))
    except OSError:
        pass
for n in range(3, 64):
    try:
        os.write(n, b"ESCAPED\\n")
        print("wrote", n)
    except OSError:
        pass
`;

let bed: Bed;
let canary: string;
beforeAll(async () => {
  bed = await makeBed({ skills: [{ name: "fds", scripts: { "fds.py": PROBE } }] });
  canary = join(bed.dir, "host-canary.log");
  writeFileSync(canary, "");
}, 120_000);
afterAll(() => bed?.cleanup());

const RUN = { commands: [["ext/fds", "fds.py", ""]] };
const WHERE = () => [
  "--workspace",
  bed.ws,
  "--config",
  bed.configFile,
  "--extra-skill-path",
  bed.extra,
  "--json",
];

function skillgateWithLeak(args: string[], at: number[]): ChildProcess {
  const leaked = openSync(canary, "a");
  return spawn(TSX, [MAIN, ...args, ...WHERE()], {
    cwd: REPO_ROOT,
    env: bed.env,
    stdio: handingDescriptor(leaked, at),
  });
}

/** What the probe saw: the run must list each leaked number as /dev/null, nothing of the host's, and no write through. */
function expectCovered(output: string, at: number[]): void {
  const lines = output.split("\n");
  for (const fd of at) expect(lines, output).toContain(`fd ${fd} /dev/null`);
  expect(output).not.toContain("host-canary");
  expect(lines.filter((line) => line.startsWith("wrote"))).toEqual([]);
  expect(readFileSync(canary, "utf8")).toBe("");
}

async function callWithLeak(at: number[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = skillgateWithLeak(["call", "RunSkillScript", JSON.stringify(RUN)], at);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, stdout, stderr };
}

describe("descriptors leaked by the host", () => {
  it("a script run by `skillgate call` sees them as /dev/null (read-only) and cannot write to the host's file", async () => {
    const { code, stdout, stderr } = await callWithLeak([40, 45, 63]);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as {
      isError: boolean;
      structured: { commands: Array<{ output: string }> };
    };
    expect(result.isError, stdout).toBe(false);
    expectCovered(result.structured.commands[0]?.output ?? "", [40, 45, 63]);
  }, 120_000);

  it("nor does a script run by `serve --http` in its prepared sandboxes (MCP SDK client, three runs)", async () => {
    const child = skillgateWithLeak(["serve", "--http", "127.0.0.1:0"], [41, 50]);
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const url = await listeningUrl(child, () => err);
      const client = new Client({ name: "inherited-fds-test", version: "0.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      // The first run is a fresh sandbox; the next ones take the sandbox prepared while the previous call settled.
      for (let round = 0; round < 3; round++) {
        const ran = await client.callTool({ name: "RunSkillScript", arguments: RUN });
        expect(ran.isError, JSON.stringify(ran.content)).toBeFalsy();
        const commands = (ran.structuredContent as { commands: Array<{ output: string }> }).commands;
        expectCovered(commands[0]?.output ?? "", [41, 50]);
      }
      await client.close();
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 180_000);
});
