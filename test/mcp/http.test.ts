// The real MCP SDK client over Streamable HTTP: two client sessions share one workspace; bad requests and Host refused.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { GATE_SKILL, GATE_SKILL_MD, makeFixture } from "../tools/helpers.js";
import { call, httpPerTest } from "./helpers.js";

const http = httpPerTest();

describe("skillgate serve --http", () => {
  it("binds 127.0.0.1 on a free port and lets two sessions share one workspace through a forced stage", async () => {
    const fixture = makeFixture();
    const server = await http.serve(fixture);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await http.connect(server.url);
    const b = await http.connect(server.url);

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
    await http.close(a);
    const after = await call(b, "Status");
    expect(after.isError).toBe(false);
    expect(server.stderr()).toMatch(/MCP session [0-9a-f-]+ opened \(2 open\)/);
  });

  it("offers only the non-skill tools when skills are disabled, and answers malformed calls readably", async () => {
    const fileTools = TOOL_NAMES.slice(7);
    const fixture = makeFixture();
    const server = await http.serve(fixture, ["--no-use-skill"]);
    const client = await http.connect(server.url);
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
    const fixture = makeFixture();
    const server = await http.serve(fixture);
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
    const fixture = makeFixture();
    const server = await http.serve(fixture);
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
