// Same-user socket servers for the authority tests: a fixture workspace served by `serve --socket`, stopped after each test.
import { join } from "node:path";
import { MAIN, TSX } from "../mcp/helpers.js";
import { type Fixture, makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { type Runner, type ServerProcess, startServer } from "./helpers.js";

/** This process's own user runs the CLI (no sudo prefix). */
export const self: Runner = { prefix: [], tsx: TSX, main: MAIN, cwd: REPO_ROOT };

/** The server and workspace of the running test; `stopServed` (each file's afterEach) removes them. */
export const served: { fixture?: Fixture; server?: ServerProcess } = {};

export async function stopServed(): Promise<void> {
  await served.server?.stop();
  served.server = undefined;
  served.fixture?.cleanup();
  served.fixture = undefined;
}

/** A fresh fixture workspace served on <dir>/sg.sock by `serve --socket` (plus `extra` flags). */
export async function serveFixture(
  extra: string[] = [],
): Promise<{ fixture: Fixture; server: ServerProcess }> {
  const fixture = makeFixture();
  served.fixture = fixture;
  const socket = join(fixture.dir, "sg.sock");
  const server = await startServer(
    self,
    ["--workspace", fixture.ws, "--config", fixture.configFile, "--socket", socket, ...extra],
    fixture.env,
  );
  served.server = server;
  return { fixture, server };
}

/** The text parts of an MCP tool result. */
export function text(result: Record<string, unknown>): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).map((p) => p.text ?? "").join("");
}
