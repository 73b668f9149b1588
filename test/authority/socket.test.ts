// `serve --socket` (same user): the real MCP SDK client through `skillgate connect`, `call` routed to the socket, and the socket's edges.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient } from "../../runtime/authority/client.js";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { connectHttp, MAIN, TSX } from "../mcp/helpers.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../tools/helpers.js";
import {
  connectBridge,
  type Runner,
  type ServerProcess,
  skillgate,
  startServer,
  waitFor,
} from "./helpers.js";

const self: Runner = { prefix: [], tsx: TSX, main: MAIN, cwd: REPO_ROOT };
let fixture: Fixture | undefined;
let server: ServerProcess | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

function text(result: Record<string, unknown>): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).map((p) => p.text ?? "").join("");
}

async function serveFixture(extra: string[] = []): Promise<{ fixture: Fixture; server: ServerProcess }> {
  fixture = makeFixture();
  const socket = join(fixture.dir, "sg.sock");
  server = await startServer(
    self,
    ["--workspace", fixture.ws, "--config", fixture.configFile, "--socket", socket, ...extra],
    fixture.env,
  );
  return { fixture, server };
}

describe("serve --socket with skillgate connect and call", () => {
  it("the MCP SDK client over stdio into connect completes the forced stage; the server shares one session", async () => {
    const { fixture, server } = await serveFixture();
    expect(server.socket).toBe(join(fixture.dir, "sg.sock"));
    expect(statSync(server.socket).mode & 0o777).toBe(0o660);
    const bridge = await connectBridge(self, ["--socket", server.socket], fixture.env);
    try {
      const { client } = bridge;
      const { tools } = await client.listTools();
      // The same tools as over stdio: the socket serves the one MCP server.
      expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
      const early = await client.callTool({ name: "Complete", arguments: {} });
      expect(early.isError).toBe(true);
      expect((early.structuredContent as { code: string }).code).toBe("SKILL_USAGE_INCOMPLETE");
      await client.callTool({ name: "ListSkill", arguments: {} });
      const read = await client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD } });
      expect((read.structuredContent as { skill_read: unknown }).skill_read).toEqual({
        skill_id: GATE_SKILL,
        read_complete: true,
      });
      const ran = await client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [[GATE_SKILL, "make_report.py", "--title Bridge"]] },
      });
      expect(ran.isError, text(ran)).toBe(false);
      expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toContain("# Bridge");
      expect((await client.callTool({ name: "Check", arguments: {} })).isError).toBe(false);
      // A second client (a CLI call) on the same server sees and extends the same evidence.
      const usage = await skillgate(
        self,
        [
          "call",
          "SetSkillUsage",
          JSON.stringify({ skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } }),
          "--workspace",
          fixture.ws,
        ],
        fixture.env,
      );
      expect(usage.code, usage.stderr).toBe(0);
      const done = await client.callTool({ name: "Complete", arguments: {} });
      expect(done.isError, text(done)).toBe(false);
      expect(text(done)).toContain(
        "Stage 0 completed successfully. Current stage index is now 1: 'summary'.",
      );
    } finally {
      await bridge.close();
    }
    await waitFor(
      "both clients to disconnect",
      () => (server.stderr().match(/disconnected/g) ?? []).length >= 2,
    );
    expect(server.stderr()).toMatch(/socket client 1 connected/);
  });

  it("call finds the socket in the server record, answers as a local call would, and refuses local flags", async () => {
    const { fixture, server } = await serveFixture();
    const record = JSON.parse(readFileSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"), "utf8"));
    expect(record).toMatchObject({
      version: 1,
      mode: "socket",
      socket: server.socket,
      workspace: fixture.ws,
    });
    const served = await skillgate(
      self,
      ["call", "Complete", "--workspace", fixture.ws, "--json"],
      fixture.env,
    );
    expect(served.code).toBe(1);
    expect(JSON.parse(served.stdout)).toMatchObject({
      tool: "Complete",
      isError: true,
      code: "SKILL_USAGE_INCOMPLETE",
    });
    expect(JSON.parse(served.stdout).structured.code).toBeUndefined();
    await waitFor("the call's connection in the server log", () =>
      server.stderr().includes("socket client 1"),
    );
    const flagged = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--config", fixture.configFile],
      fixture.env,
    );
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toBe(
      `error [FLAG_CONFLICT]: workspace ${fixture.ws} is served by a socket server (${server.socket}), whose own config and skill flags apply; drop --config from this call\n`,
    );
    // Stopping the server removes the record: calls are local again.
    expect(await server.stop()).toBe(0);
    expect(existsSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"))).toBe(false);
    expect(existsSync(server.socket)).toBe(false);
    const local = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--config", fixture.configFile],
      fixture.env,
    );
    expect(local.code, local.stderr).toBe(0);
  });

  it("connect and call say who should answer when the server is gone", async () => {
    const { fixture, server } = await serveFixture();
    const recordFile = join(fixture.ws, ".ucagent", "skillgate", "server.json");
    const record = readFileSync(recordFile, "utf8");
    await server.stop();
    // A server that died leaves its record behind.
    writeFileSync(recordFile, record);
    const { pid, started_at: started, user } = JSON.parse(record);
    const who = `(a skillgate server of ${fixture.ws}, user ${user}, pid ${pid}, started ${started})`;
    const called = await skillgate(self, ["call", "Status", "--workspace", fixture.ws], fixture.env);
    expect(called.code).toBe(1);
    expect(called.stderr).toBe(
      `error [AUTHORITY_UNREACHABLE]: nothing answers on unix socket ${server.socket} ${who} (ENOENT); fix: start it again with \`skillgate serve --socket ${server.socket} --workspace ${fixture.ws}\`, or delete ${fixture.ws}/.ucagent/skillgate/server.json to work without it\n`,
    );
    const bridged = await skillgate(self, ["connect", "--workspace", fixture.ws], fixture.env, "");
    expect(bridged.code).toBe(1);
    expect(bridged.stdout).toBe("");
    expect(bridged.stderr).toBe(called.stderr);
    const bare = await skillgate(
      self,
      ["connect", "--socket", join(fixture.dir, "none.sock")],
      fixture.env,
      "",
    );
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      `error [AUTHORITY_UNREACHABLE]: nothing answers on unix socket ${join(fixture.dir, "none.sock")} (ENOENT); fix: check the path, and that \`skillgate serve --socket\` or \`--authority\` runs\n`,
    );
  });

  it("replaces a stale socket, refuses a live one, a non-socket file, an over-long path and a bad mode", async () => {
    const { fixture, server } = await serveFixture(["--socket-mode", "600"]);
    expect(statSync(server.socket).mode & 0o777).toBe(0o600);
    const args = (socket: string, extra: string[] = []) => [
      "serve",
      "--workspace",
      fixture.ws,
      "--config",
      fixture.configFile,
      "--socket",
      socket,
      ...extra,
    ];
    const live = await skillgate(self, args(server.socket), fixture.env);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${server.socket}: another skillgate server is already listening there; fix: stop that server first, or choose another --socket path\n`,
    );
    const file = join(fixture.dir, "plain-file");
    writeFileSync(file, "x");
    const notSocket = await skillgate(self, args(file), fixture.env);
    expect(notSocket.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${file}: it exists and is not a socket; fix: remove it or choose another --socket path\n`,
    );
    const long = join(fixture.dir, `${"x".repeat(120)}.sock`);
    const tooLong = await skillgate(self, args(long), fixture.env);
    expect(tooLong.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${long}: the path is ${Buffer.byteLength(long)} bytes, over the 107-byte limit of unix sockets; fix: pass a shorter --socket path, e.g. /run/skillgate/<name>.sock\n`,
    );
    const badMode = await skillgate(
      self,
      args(join(fixture.dir, "b.sock"), ["--socket-mode", "rw"]),
      fixture.env,
    );
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain(
      "error [USAGE]: --socket-mode rw is not an octal file mode; fix: give three octal digits, e.g. --socket-mode 660 (owner and group may connect) or 600 (owner only)\n",
    );
    const orphan = await skillgate(self, ["serve", "--workspace", fixture.ws, "--same-user-ok"], fixture.env);
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toContain(
      "error [USAGE]: --same-user-ok needs --authority or --socket; add one of them or drop --same-user-ok\n",
    );
    // A server killed without cleanup leaves a socket file nobody answers on: the next start takes it over.
    // (the record's pid is the server itself; the spawned child is tsx, which would not pass SIGKILL on)
    const { pid } = JSON.parse(
      readFileSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"), "utf8"),
    );
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    process.kill(pid, "SIGKILL");
    await exited;
    expect(existsSync(server.socket)).toBe(true);
    const again = await startServer(self, args(server.socket).slice(1), fixture.env);
    try {
      const status = await skillgate(self, ["call", "Status", "--workspace", fixture.ws], fixture.env);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain("current stage 0: 'report'");
    } finally {
      await again.stop();
    }
  });

  it("also serves Streamable HTTP with a Bearer token; an authority refuses HTTP without one", async () => {
    fixture = makeFixture();
    const tokenFile = join(fixture.dir, "mcp.token");
    const token = randomBytes(24).toString("hex");
    writeFileSync(tokenFile, `${token}\n`);
    server = await startServer(
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

  it("answers parallel calls over several connections at once, and the evidence they record adds up", async () => {
    const { fixture, server } = await serveFixture();
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectClient(server.socket)));
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          clients.flatMap((client) => [
            client.callTool({ name: "ListSkill", arguments: {} }),
            client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD } }),
            client.callTool({ name: "Status", arguments: {} }),
            client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD, start: 1, count: 2 } }),
          ]),
        );
        expect(results).toHaveLength(20);
        for (const result of results) expect(result.isError, text(result)).toBe(false);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
    const status = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--json"],
      fixture.env,
    );
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).structured.skills).toMatchObject([
      { id: GATE_SKILL, listed: true, read: true, used: false },
    ]);
    await waitFor(
      "all six connections to close",
      () => (server.stderr().match(/disconnected/g) ?? []).length >= 6,
    );
  });
});

describe("serve --socket --no-file-tools", () => {
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
});
