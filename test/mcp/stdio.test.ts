// The real MCP SDK client drives `skillgate serve` over stdio through a forced stage, gate failures first.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../tools/helpers.js";
import { call, MAIN, servePerTest, TSX } from "./helpers.js";

const served = servePerTest();

const FILE_TOOLS = TOOL_NAMES.slice(7);
const USAGE = { skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } };

describe("skillgate serve over stdio", () => {
  it("offers the workflow tools and the file tools with JSON schemas and completes a forced stage end to end", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture);
    const { client } = connection;

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe("object");
    const read = tools.find((tool) => tool.name === "ReadTextFile")!;
    expect(read.inputSchema.required).toEqual(["path"]);
    expect(Object.keys(read.inputSchema.properties ?? {})).toEqual(["path", "start", "count"]);

    // Skipping every step: the skill gate fails first and no checker runs.
    const early = await call(client, "Complete");
    expect(early.isError).toBe(true);
    expect(early.structured.code).toBe("SKILL_USAGE_INCOMPLETE");
    expect(early.text).toContain(GATE_SKILL);

    const listed = await call(client, "ListSkill");
    expect(listed.isError).toBe(false);
    expect(listed.text).toMatch(/^Found 1 available skills:\n1\. Skill Name: gate-skill\n/);

    const readResult = await call(client, "ReadTextFile", { path: GATE_SKILL_MD });
    expect(readResult.isError).toBe(false);
    expect(readResult.structured.skill_read).toEqual({ skill_id: GATE_SKILL, read_complete: true });

    const run = await call(client, "RunSkillScript", {
      commands: [[GATE_SKILL, "make_report.py", "--title Stdio"]],
    });
    expect(run.isError).toBe(false);
    expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toContain("# Stdio");

    // Evidence complete but SetSkillUsage not called yet: still gated.
    const check = await call(client, "Check");
    expect(check.isError).toBe(false);
    const notValidated = await call(client, "Complete");
    expect(notValidated.isError).toBe(true);
    expect(notValidated.structured.code).toBe("SKILL_USAGE_NOT_VALIDATED");

    const usage = await call(client, "SetSkillUsage", USAGE);
    expect(usage.isError).toBe(false);
    const complete = await call(client, "Complete");
    expect(complete.isError).toBe(false);

    const status = await call(client, "Status");
    expect(status.isError).toBe(false);
    expect(status.text).toContain("summary");
    expect(connection.stderr()).toContain("skillgate: workspace");
  });

  it("answers a malformed call with a readable isError result and an unknown tool with -32602", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture);
    const { client } = connection;
    const bad = await call(client, "ReadTextFile", { path: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toBe(
      "Invalid arguments for ReadTextFile: 'path' must be string, got 42. Fix the call and try again, e.g. " +
        'ReadTextFile {"path": ".ucagent/skills/<group>/<skill>/SKILL.md", "start": 1, "count": -1}.',
    );
    expect(bad.structured.code).toBe("INVALID_ARGS");
    const badCommands = await call(client, "RunSkillScript", { commands: "not json" });
    expect(badCommands.isError).toBe(true);
    expect(badCommands.text).toMatch(/^RunSkillScript: 'commands' is a string but not valid JSON/);
    await expect(call(client, "listskill")).rejects.toMatchObject({
      code: -32602,
      message: `MCP error -32602: Unknown tool 'listskill'. Did you mean 'ListSkill'? Available tools: ${TOOL_NAMES.join(", ")}.`,
    });
  });

  it("hides the skill tools when skills are disabled, and a stage completes from its checkers alone", async () => {
    const fixture = makeFixture();
    const connection = await served.serve(fixture, ["--no-use-skill"]);
    const { client } = connection;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "ReadTextFile",
      "Check",
      "Complete",
      "Status",
      ...FILE_TOOLS,
    ]);
    // A tool that is not offered is a JSON-RPC error, like an unknown one.
    await expect(call(client, "ListSkill")).rejects.toMatchObject({
      code: -32602,
      message:
        "MCP error -32602: Tool 'ListSkill' is not available: skill support is disabled (skill.use_skill: false or " +
        `--no-use-skill). Available tools: ${["ReadTextFile", "Check", "Complete", "Status", ...FILE_TOOLS].join(", ")}.`,
    });
    expect(existsSync(join(fixture.ws, ".ucagent", "skills", "fixture"))).toBe(false);
    const failed = await call(client, "Complete");
    expect(failed.isError).toBe(true);
    expect(failed.structured.code).toBe("CHECK_FAILED");
    mkdirSync(join(fixture.ws, "out"), { recursive: true });
    writeFileSync(join(fixture.ws, "out", "report.md"), "# Written by hand\n");
    const complete = await call(client, "Complete");
    expect(complete.isError).toBe(false);
  });

  it("writes nothing but JSON-RPC messages to stdout and exits 0 when the client closes stdin", async () => {
    const fixture = served.keep(makeFixture());
    const child = spawn(TSX, [MAIN, "serve", "--workspace", fixture.ws, "--config", fixture.configFile], {
      cwd: REPO_ROOT,
      env: fixture.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answers:\n${stdout}\n${stderr}`)), 45_000);
      const poll = setInterval(() => {
        if (stdout.includes('"id":1')) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ListSkill", arguments: {} } });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "RunSkillScript", arguments: { commands: 7 } },
    });
    send({ jsonrpc: "2.0", id: 4, method: "skills/list", params: {} });
    // Closing stdin right after the last request: the server still answers all of them before it exits.
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = stdout.split("\n").filter((line) => line.length > 0);
    expect(lines).toHaveLength(4);
    // Answers may come in any order (calls run concurrently).
    const messages = lines
      .map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: { isError?: boolean } })
      .sort((a, b) => a.id - b.id);
    expect(messages.map((message) => [message.jsonrpc, message.id])).toEqual([
      ["2.0", 1],
      ["2.0", 2],
      ["2.0", 3],
      ["2.0", 4],
    ]);
    expect(messages[2]?.result?.isError).toBe(true);
    expect(stderr).toContain("skillgate: workspace");
  });
});
