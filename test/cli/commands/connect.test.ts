// `skillgate connect` as a real process: usage and unreachable errors on stderr, and a real stdio bridge to a socket server.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { MAIN, TSX } from "../../mcp/helpers.js";
import { REPO_ROOT } from "../../tools/helpers.js";
import { fixturesForFile, skillgate } from "../helpers.js";
import { startSocketServer } from "./socket-serve.js";

const fixture = fixturesForFile();

const connect = (args: string[], env: NodeJS.ProcessEnv) => skillgate(["connect", ...args], env);

describe("skillgate connect refuses", () => {
  it("no --socket and no --workspace: a usage error (exit 2)", async () => {
    const f = fixture();
    expect(await connect([], f.env)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error [USAGE]: connect needs --socket <path> (printed by `skillgate serve --authority`) or --workspace <dir>\n",
    });
  });

  it("a workspace without a server record: AUTHORITY_UNREACHABLE naming the record and the fix (exit 1)", async () => {
    const f = fixture();
    expect(await connect(["--workspace", f.ws], f.env)).toEqual({
      code: 1,
      stdout: "",
      stderr: `error [AUTHORITY_UNREACHABLE]: workspace ${f.ws} has no server record (.ucagent/skillgate/server.json): no socket server serves it; fix: start \`skillgate serve --authority\` (or --socket) for it, or pass --socket\n`,
    });
  });

  it("a socket nobody listens on: AUTHORITY_UNREACHABLE naming it, nothing on stdout (exit 1)", async () => {
    const f = fixture();
    const socket = join(f.dir, "nobody.sock");
    const outcome = await connect(["--socket", socket], f.env);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toMatch(/^error \[AUTHORITY_UNREACHABLE\]: /);
    expect(outcome.stderr).toContain(socket);
  });
});

describe("skillgate connect bridges stdio to the socket", () => {
  it.each([["--socket"], ["--workspace"]])(
    "found by %s: a stdio MCP client lists and calls the tools",
    async (how) => {
      const f = fixture();
      const socket = join(f.dir, "s.sock");
      const server = await startSocketServer(socket, ["--workspace", f.ws, "--config", f.configFile], f.env);
      const client = new Client({ name: "connect-test", version: "0" });
      try {
        await client.connect(
          new StdioClientTransport({
            command: TSX,
            args: [MAIN, "connect", how, how === "--socket" ? socket : f.ws],
            env: f.env as Record<string, string>,
            cwd: REPO_ROOT,
            stderr: "pipe",
          }),
        );
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names.slice(0, 3)).toEqual(["ListSkill", "ReadTextFile", "RunSkillScript"]);
        const status = await client.callTool({ name: "Status", arguments: {} });
        expect(status.isError).toBeFalsy();
        expect((status.content as { text: string }[])[0]?.text).toMatch(/^Progress: 0\/2 stages completed/);
      } finally {
        await client.close();
        await server.stop();
      }
    },
  );
});
