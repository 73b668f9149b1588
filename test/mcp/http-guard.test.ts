// Who may talk to the HTTP endpoint (runtime/mcp/http-guard.ts): pure checks, then Origin and Bearer token on a real server.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import {
  checkBindPolicy,
  guardRequest,
  isLoopbackHost,
  ownOrigins,
  readTokenFile,
} from "../../runtime/mcp/http-guard.js";
import { makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { call, connectHttp, httpPerTest, MAIN, TSX } from "./helpers.js";

const http = httpPerTest();

const TOKEN = "0123456789abcdef0123";
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe("isLoopbackHost and ownOrigins", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["localhost", true],
    ["::1", true],
    ["0.0.0.0", false],
    ["192.168.1.2", false],
    ["127.0.0.1.evil.example", false],
    ["::", false],
  ])("%s is loopback: %s", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });

  it("a loopback bind accepts the three loopback spellings; another host only itself (IPv6 bracketed)", () => {
    expect(ownOrigins("127.0.0.1", 8765)).toEqual([
      "http://127.0.0.1:8765",
      "http://localhost:8765",
      "http://[::1]:8765",
    ]);
    expect(ownOrigins("10.0.0.5", 80)).toEqual(["http://10.0.0.5:80"]);
    expect(ownOrigins("fe80::1", 80)).toEqual(["http://[fe80::1]:80"]);
  });
});

describe("checkBindPolicy", () => {
  it("allows loopback without a token and anything with a token of 16+ characters", () => {
    expect(() => checkBindPolicy("127.0.0.1", {})).not.toThrow();
    expect(() => checkBindPolicy("0.0.0.0", { authToken: TOKEN })).not.toThrow();
  });

  it.each([
    [
      "0.0.0.0",
      {},
      "Refusing to serve MCP on 0.0.0.0, which is not a loopback address, without authentication: anyone who can reach it could drive the workflow. Add --auth-token-file FILE (or --auth-token TOKEN), or bind 127.0.0.1.",
    ],
    [
      "127.0.0.1",
      { authToken: "x".repeat(15) },
      "The auth token is 15 characters; use at least 16 (e.g. `openssl rand -hex 32`).",
    ],
  ])("refuses %s %j", (host, options, message) => {
    expect(() => checkBindPolicy(host, options)).toThrow(new SkillgateError("USAGE", message));
  });
});

describe("readTokenFile", () => {
  it("reads the first line, trimmed; an empty or missing file is a usage error naming it", () => {
    const fixture = http.keep(makeFixture());
    const file = join(fixture.dir, "t.token");
    writeFileSync(file, `  ${TOKEN}  \r\nsecond line\n`);
    expect(readTokenFile(file)).toBe(TOKEN);
    writeFileSync(file, "\n");
    expect(() => readTokenFile(file)).toThrow(
      new SkillgateError("USAGE", `--auth-token-file ${file} is empty: put the token on its first line.`),
    );
    const missing = join(fixture.dir, "none.token");
    expect(() => readTokenFile(missing)).toThrow(
      new SkillgateError(
        "USAGE",
        `--auth-token-file ${missing} cannot be read (ENOENT). Give a readable file holding the token on its first line.`,
      ),
    );
  });
});

describe("guardRequest", () => {
  const allowed = new Set(["http://127.0.0.1:8765"]);

  it("checks the Origin first (case-insensitively), then the Bearer token", () => {
    expect(guardRequest(request({}), allowed, undefined)).toEqual({ ok: true });
    expect(guardRequest(request({ origin: "HTTP://127.0.0.1:8765" }), allowed, undefined)).toEqual({
      ok: true,
    });
    expect(
      guardRequest(
        request({ origin: "http://evil.example", authorization: `Bearer ${TOKEN}` }),
        allowed,
        TOKEN,
      ),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(guardRequest(request({ authorization: `bearer  ${TOKEN} ` }), allowed, TOKEN)).toEqual({
      ok: true,
    });
  });

  it.each([
    [
      {},
      "Unauthorized: this server needs an `Authorization: Bearer <token>` header (the token of --auth-token-file).",
    ],
    [
      { authorization: `Basic ${TOKEN}` },
      "Unauthorized: this server needs an `Authorization: Bearer <token>` header (the token of --auth-token-file).",
    ],
    [{ authorization: `Bearer ${TOKEN}x` }, "Unauthorized: the Bearer token is wrong."],
    [{ authorization: `Bearer ${TOKEN.slice(1)}` }, "Unauthorized: the Bearer token is wrong."],
  ])("401 for %j", (headers, message) => {
    expect(guardRequest(request(headers), allowed, TOKEN)).toEqual({
      ok: false,
      status: 401,
      message,
      headers: { "www-authenticate": 'Bearer realm="skillgate"' },
    });
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
    const fixture = makeFixture();
    const server = await http.serve(fixture);
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
    const fixture = http.keep(makeFixture());
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
    const fixture = http.keep(makeFixture());
    const tokenFile = join(fixture.dir, "mcp.token");
    const token = randomBytes(24).toString("hex");
    writeFileSync(tokenFile, `${token}\n`);
    const server = await http.serve(fixture, ["--http", "0.0.0.0:0", "--auth-token-file", tokenFile]);
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
    const client = await http.connect(url, { authorization: `Bearer ${token}` });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await call(client, "Status")).isError).toBe(false);
  });
});
