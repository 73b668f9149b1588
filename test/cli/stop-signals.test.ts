// runtime/cli/stop-signals.ts through the built CLI: `serve --http` stops cleanly on SIGTERM even after the lock library (and its signal-exit) loaded late.
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { runProcess } from "../support/process.js";
import { type Fixture, GATE_SKILL, makeFixture, REPO_ROOT } from "../tools/helpers.js";

let fixture: Fixture;
beforeAll(async () => {
  ensureBuilt();
  fixture = makeFixture();
  // The first start appends under the lock; later starts of a clean ledger take none, so the lock library loads
  // only with the first run, after serve listens for signals: the order that used to end the server abruptly.
  const first = await runProcess(
    process.execPath,
    [BUILT_MAIN, "call", "Status", "--workspace", fixture.ws, "--config", fixture.configFile],
    { cwd: REPO_ROOT, env: fixture.env },
  );
  expect(first.code, first.stderr).toBe(0);
}, 600_000);
afterAll(() => fixture?.cleanup());

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serveHttp(): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      BUILT_MAIN,
      "serve",
      "--http",
      "127.0.0.1:0",
      "--json",
      "--workspace",
      fixture.ws,
      "--config",
      fixture.configFile,
    ],
    { cwd: REPO_ROOT, env: fixture.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n").find((text) => text.includes('"listening"'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url, stderr: () => err, exited });
    });
    child.once("exit", (code) => reject(new Error(`serve --http exited ${code} before listening: ${err}`)));
  });
}

describe("untilStopSignal", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "serve --http closes and exits 0 on %s after a run that took the workspace lock",
    async (signal) => {
      const served = await serveHttp();
      const client = new Client({ name: "stop-signals-test", version: "0.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      // A run's receipt is appended under the lock, which loads the lock library (and signal-exit) on first use.
      const ran = await client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [[GATE_SKILL, "make_report.py", "--title Stop"]] },
      });
      expect(ran.isError, JSON.stringify(ran.content)).toBeFalsy();
      await client.close();
      served.child.kill(signal);
      expect(await served.exited).toEqual({ code: 0, signal: null });
      expect(served.stderr()).toContain("stopped");
    },
    120_000,
  );
});
