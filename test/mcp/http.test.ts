// The real MCP SDK client over Streamable HTTP: a forced stage across two client sessions sharing one workspace.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { call, connectHttp, type HttpServer, MAIN, startHttpServer, TSX } from "./helpers.js";

let fixture: Fixture | undefined;
let server: HttpServer | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await server?.stop();
  server = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

describe("skillgate serve --http", () => {
  it("binds 127.0.0.1 on a free port and lets two sessions share one workspace through a forced stage", async () => {
    fixture = makeFixture();
    server = await startHttpServer(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await connectHttp(server.url);
    const b = await connectHttp(server.url);
    clients.push(a, b);

    const gated = await call(b, "Complete");
    expect(gated.isError).toBe(true);
    expect(gated.structured.code).toBe("SKILL_USAGE_INCOMPLETE");

    expect((await call(a, "ListSkill")).isError).toBe(false);
    expect((await call(b, "ReadTextFile", { path: GATE_SKILL_MD })).isError).toBe(false);
    const run = await call(a, "RunSkillScript", {
      commands: [[GATE_SKILL, "make_report.py", "--title HTTP"]],
    });
    expect(run.isError).toBe(false);
    expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toContain("# HTTP");

    // Both sessions at once: state writes are serialised, both see the same stage.
    const [statusA, statusB] = await Promise.all([call(a, "Status"), call(b, "Status")]);
    expect(statusA.isError).toBe(false);
    expect(statusB.text).toBe(statusA.text);

    expect((await call(b, "Check")).isError).toBe(false);
    const usage = await call(a, "SetSkillUsage", {
      skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } },
    });
    expect(usage.isError).toBe(false);
    const complete = await call(b, "Complete");
    expect(complete.isError).toBe(false);

    // Closing one session leaves the other working.
    await a.close();
    clients.splice(clients.indexOf(a), 1);
    const after = await call(b, "Status");
    expect(after.isError).toBe(false);
    expect(server.stderr()).toMatch(/MCP session [0-9a-f-]+ opened \(2 open\)/);
  });

  it("offers only the non-skill tools when skills are disabled, and answers malformed calls readably", async () => {
    const fileTools = TOOL_NAMES.slice(7);
    fixture = makeFixture();
    server = await startHttpServer(
      ["--workspace", fixture.ws, "--config", fixture.configFile, "--no-use-skill"],
      fixture.env,
    );
    const client = await connectHttp(server.url);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "ReadTextFile",
      "Check",
      "Complete",
      "Status",
      ...fileTools,
    ]);
    const bad = await call(client, "ReadTextFile", { path: "dut/x", start: "one" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Invalid arguments for ReadTextFile: 'start' must be number, got "one"\./);
  });

  it("refuses a request that is neither an initialize nor part of a session", async () => {
    fixture = makeFixture();
    server = await startHttpServer(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Bad request: no mcp-session-id header and not an initialize request",
    );
  });

  it("refuses a foreign Host header on a loopback bind (DNS-rebinding protection)", async () => {
    fixture = makeFixture();
    server = await startHttpServer(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const url = new URL(server.url);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            host: `evil.example:${url.port}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(status).toBe(403);
  });
});

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
});

async function post(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; auth: string | null }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: INIT,
  });
  return {
    status: response.status,
    body: await response.text(),
    auth: response.headers.get("www-authenticate"),
  };
}

function serveOnce(args: string[], env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const run = spawnSync(TSX, [MAIN, "serve", ...args], {
    cwd: REPO_ROOT,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}

describe("skillgate serve --http: Origin and authentication", () => {
  it("refuses a foreign Origin with 403 and accepts the server's own", async () => {
    fixture = makeFixture();
    server = await startHttpServer(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const port = new URL(server.url).port;
    const foreign = await post(server.url, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toBe(
      `Forbidden: Origin http://evil.example is not allowed (only http://127.0.0.1:${port}, http://localhost:${port}, ` +
        `http://[::1]:${port}). Start the server with --allow-origin ORIGIN to admit a browser client from elsewhere.`,
    );
    expect((await post(server.url, { origin: "null" })).status).toBe(403);
    expect((await post(server.url, { origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it("refuses to bind a non-loopback address without a token, and a too-short token", () => {
    fixture = makeFixture();
    const base = ["--workspace", fixture.ws, "--config", fixture.configFile];
    const open = serveOnce([...base, "--http", "0.0.0.0:0"], fixture.env);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain(
      "Refusing to serve MCP on 0.0.0.0, which is not a loopback address, without authentication: anyone who can " +
        "reach it could drive the workflow. Add --auth-token-file FILE (or --auth-token TOKEN), or bind 127.0.0.1.",
    );
    const short = serveOnce([...base, "--http", "127.0.0.1:0", "--auth-token", "abc"], fixture.env);
    expect(short.status).toBe(2);
    expect(short.stderr).toContain("The auth token is 3 characters; use at least 16");
    const empty = join(fixture.dir, "empty.token");
    writeFileSync(empty, "\n");
    const emptyRun = serveOnce([...base, "--http", "127.0.0.1:0", "--auth-token-file", empty], fixture.env);
    expect(emptyRun.stderr).toContain(
      `--auth-token-file ${empty} is empty: put the token on its first line.`,
    );
  });

  it("on a non-loopback bind with a token file, requires the Bearer token on every request", async () => {
    fixture = makeFixture();
    const tokenFile = join(fixture.dir, "mcp.token");
    const token = randomBytes(24).toString("hex");
    writeFileSync(tokenFile, `${token}\n`);
    server = await startHttpServer(
      [
        "--workspace",
        fixture.ws,
        "--config",
        fixture.configFile,
        "--http",
        "0.0.0.0:0",
        "--auth-token-file",
        tokenFile,
      ],
      fixture.env,
    );
    const url = `http://127.0.0.1:${new URL(server.url).port}/mcp`;
    const missing = await post(url, {});
    expect(missing).toMatchObject({ status: 401, auth: 'Bearer realm="skillgate"' });
    expect(JSON.parse(missing.body).error.message).toBe(
      "Unauthorized: this server needs an `Authorization: Bearer <token>` header (the token of --auth-token-file).",
    );
    const wrong = await post(url, { authorization: `Bearer ${token.slice(1)}x` });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body).error.message).toBe("Unauthorized: the Bearer token is wrong.");
    await expect(connectHttp(url)).rejects.toThrow();
    const client = await connectHttp(url, { authorization: `Bearer ${token}` });
    clients.push(client);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await call(client, "Status")).isError).toBe(false);
  });
});
