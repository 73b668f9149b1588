// Starting a socket server (authority/serve.ts): also over Streamable HTTP with a token (an authority refuses HTTP without one), and the session's options kept over the socket.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSocketServer } from "../../runtime/authority/index.js";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { connectHttp } from "../mcp/helpers.js";
import { tempRoot } from "../support/workspace.js";
import { GATE_SKILL, makeFixture } from "../tools/helpers.js";
import { connectBridge, skillgate, startServer } from "./helpers.js";
import { self, served, serveFixture, stopServed } from "./socket-fixture.js";

afterEach(stopServed);

describe("startSocketServer", () => {
  it("also serves Streamable HTTP with a Bearer token; an authority refuses HTTP without one", async () => {
    const fixture = makeFixture();
    served.fixture = fixture;
    const tokenFile = join(fixture.dir, "mcp.token");
    const token = randomBytes(24).toString("hex");
    writeFileSync(tokenFile, `${token}\n`);
    const server = await startServer(
      self,
      [
        "--workspace",
        fixture.ws,
        "--config",
        fixture.configFile,
        "--socket",
        join(fixture.dir, "sg.sock"),
        "--http",
        "127.0.0.1:0",
        "--auth-token-file",
        tokenFile,
      ],
      fixture.env,
    );
    served.server = server;
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const record = JSON.parse(readFileSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"), "utf8"));
    expect(record.http).toBe(server.url);
    await expect(connectHttp(server.url!)).rejects.toThrow();
    const client = await connectHttp(server.url!, { authorization: `Bearer ${token}` });
    try {
      await client.callTool({ name: "ListSkill", arguments: {} });
      // The socket's clients see the list evidence the HTTP client produced: one session.
      const viaSocket = await skillgate(
        self,
        ["call", "Status", "--workspace", fixture.ws, "--json"],
        fixture.env,
      );
      expect(viaSocket.code, viaSocket.stderr).toBe(0);
      expect(JSON.parse(viaSocket.stdout).structured.skills).toMatchObject([
        { id: GATE_SKILL, listed: true },
      ]);
    } finally {
      await client.close();
    }
    const noToken = await skillgate(
      self,
      ["serve", "--authority", "--workspace", fixture.ws, "--http", "127.0.0.1:0"],
      fixture.env,
    );
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain(
      "error [USAGE]: serve --authority --http needs --auth-token-file FILE: every local user can reach a loopback port, so without a token anyone could drive the authority; give the token file to the agent's user only\n",
    );
  });

  it("leaves the file tools out over the socket too", async () => {
    const { fixture, server } = await serveFixture(["--no-file-tools"]);
    const bridge = await connectBridge(self, ["--socket", server.socket], fixture.env);
    try {
      const { tools } = await bridge.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES.slice(0, 7));
      await expect(
        bridge.client.callTool({ name: "EditTextFile", arguments: { path: "out/a.md", content: "x" } }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await bridge.close();
    }
  });

  it.each([
    [
      "a workspace that does not exist",
      (dir: string) => ({ workspace: join(dir, "none"), env: { SKILLGATE_HOME: join(dir, "home") } }),
      (dir: string) =>
        `workspace ${join(dir, "none")} does not exist; fix: create it as the agent's user (it owns the workspace; the authority only owns .ucagent/skillgate/)`,
    ],
    [
      "a secret in a workspace folder whose name starts with two dots",
      (dir: string) => ({ workspace: dir, env: { SKILLGATE_HOME: join(dir, "..secret") } }),
      (dir: string) =>
        `the authority's secret ${join(dir, "..secret")} (SKILLGATE_HOME ${join(dir, "..secret")}) is inside the workspace ${dir}; fix: point SKILLGATE_HOME at the authority user's own folder`,
    ],
    [
      "a secret kept inside the workspace",
      (dir: string) => ({ workspace: dir, env: { SKILLGATE_HOME: join(dir, ".secret") } }),
      (dir: string) =>
        `the authority's secret ${join(dir, ".secret")} (SKILLGATE_HOME ${join(dir, ".secret")}) is inside the workspace ${dir}; fix: point SKILLGATE_HOME at the authority user's own folder`,
    ],
  ])("--authority refuses %s before touching anything", async (_name, where, message) => {
    const temp = tempRoot("skillgate-serve-refused-", { realpath: true });
    try {
      const { workspace, env } = where(temp.dir);
      await expect(
        startSocketServer({ workspace, authority: true, session: { env }, log: () => undefined }),
      ).rejects.toMatchObject({ code: "AUTHORITY_REFUSED", message: message(temp.dir) });
      expect(existsSync(join(temp.dir, ".ucagent"))).toBe(false);
    } finally {
      temp.cleanup();
    }
  });
});
