// Real parallel RunSkillScript calls from two kinds of process on one workspace: a `skillgate serve --http` answering
// MCP SDK calls at once, and `skillgate call` processes beside it. Every call's run receipt must be in the ledger
// exactly once, the chain must verify, and no record may be quarantined.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { call, connectHttp, type HttpServer, startHttpServer } from "../mcp/helpers.js";
import { type Fixture, fixtureConfig, GATE_SKILL, makeFixture } from "../tools/helpers.js";
import { callCli, skillgate } from "./cli.js";

const ROUNDS = 3;
const HTTP_CALLS = 12;
const CLI_CALLS = 3;

let fx: Fixture;
let server: HttpServer;

beforeAll(async () => {
  fx = makeFixture({ sandboxLevel: 1 });
  const config = fixtureConfig({ sandboxLevel: 1 });
  // A slot per call: the commits, not the run queue, must keep the ledger whole.
  writeFileSync(
    fx.configFile,
    stringify({ ...config, exec: { ...(config.exec as object), max_parallel_runs: HTTP_CALLS } }),
  );
  await (await fx.open()).catalog();
  server = await startHttpServer(["--workspace", fx.ws, "--config", fx.configFile], fx.env);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  fx?.cleanup();
});

const command = (tag: string) => ({ commands: [[GATE_SKILL, "show_env.py", tag]] });

interface Receipt {
  seq: number;
  kind: string;
  data: { argv?: string[]; status?: string };
}

describe("parallel RunSkillScript from a server and CLI processes", () => {
  it(`${ROUNDS} rounds of ${HTTP_CALLS} MCP calls at once beside ${CLI_CALLS} skillgate call processes: every receipt once, ledger verifies`, async () => {
    const client = await connectHttp(server.url);
    const tags: string[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const http = Array.from({ length: HTTP_CALLS }, (_, i) => {
          const tag = `http-${round}-${i}`;
          tags.push(tag);
          return call(client, "RunSkillScript", command(tag)).then((result) => ({ tag, ...result }));
        });
        const cli = Array.from({ length: CLI_CALLS }, (_, i) => {
          const tag = `cli-${round}-${i}`;
          tags.push(tag);
          return callCli("RunSkillScript", command(tag), fx).then((result) => ({
            tag,
            isError: result.json.isError,
            text: `${result.json.text}\n${result.stderr}`,
          }));
        });
        const results = await Promise.all([...http, ...cli]);
        expect(results.filter((r) => r.isError).map((r) => `${r.tag}: ${r.text}`)).toEqual([]);
      }
    } finally {
      await client.close();
    }
    const lines = readFileSync(join(fx.ws, ".ucagent", "skillgate", "ledger.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Receipt);
    expect(lines.map((r) => r.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines.filter((r) => r.kind === "quarantine")).toEqual([]);
    const receipts = lines.filter((r) => r.kind === "run").map((r) => r.data.argv?.at(-1));
    expect([...receipts].sort()).toEqual([...tags].sort());
    const verified = await skillgate(["verify", fx.ws, "--config", fx.configFile, "--json"], fx.env);
    expect(verified.exit, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  }, 600_000);
});
