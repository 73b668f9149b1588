// Spawns `skillgate serve` from sources and connects the real MCP SDK client over stdio or Streamable HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv, type ValidateFunction } from "ajv";
import { afterEach } from "vitest";
import { z } from "zod";
import { type Fixture, REPO_ROOT } from "../tools/helpers.js";

export const TSX = join(REPO_ROOT, "node_modules", ".bin", "tsx");
export const MAIN = join(REPO_ROOT, "runtime", "cli", "main.ts");

export interface StdioConnection {
  client: Client;
  stderr(): string;
  /** The server's process id (null once it ended). */
  pid(): number | null;
  close(): Promise<void>;
}

/** `launch` is the program and its first arguments: tsx on the sources, or node on the build (whose signals tsx does not relay). */
export async function connectStdio(
  serveArgs: string[],
  env: NodeJS.ProcessEnv,
  launch: [string, ...string[]] = [TSX, MAIN],
): Promise<StdioConnection> {
  const [command, ...first] = launch;
  const transport = new StdioClientTransport({
    command,
    args: [...first, "serve", ...serveArgs],
    env: env as Record<string, string>,
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const client = new Client({ name: "skillgate-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, stderr: () => log, pid: () => transport.pid, close: () => client.close() };
}

/** A test's fixture and what it started: stopped in reverse order after the test, then the fixture removed. */
function perTestSlot() {
  let fixture: Fixture | undefined;
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    fixture?.cleanup();
    fixture = undefined;
  });
  return {
    keep(made: Fixture): Fixture {
      fixture = made;
      return made;
    },
    onEnd(stop: () => Promise<void>): void {
      stops.push(stop);
    },
  };
}

const servedArgs = (made: Fixture, extra: string[]) => [
  "--workspace",
  made.ws,
  "--config",
  made.configFile,
  ...extra,
];

export interface ServedPerTest {
  /** Keeps a fixture of the current test, removed after it. */
  keep(fixture: Fixture): Fixture;
  /** `serve --workspace --config` of the fixture (plus `extra` flags) over stdio, closed after the test. */
  serve(fixture: Fixture, extra?: string[]): Promise<StdioConnection>;
}

/**
 * The stdio suites' per-test fixture and server: whatever a test kept or started is closed and removed after it
 * (registers the afterEach, so call it at the top of the test file).
 */
export function servePerTest(): ServedPerTest {
  const slot = perTestSlot();
  return {
    keep: slot.keep,
    async serve(made, extra = []) {
      slot.keep(made);
      const connection = await connectStdio(servedArgs(made, extra), made.env);
      slot.onEnd(() => connection.close());
      return connection;
    },
  };
}

export interface HttpServer {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `serve --http 127.0.0.1:0 --json` and reads the bound URL from its stdout JSON line. */
export async function startHttpServer(serveArgs: string[], env: NodeJS.ProcessEnv): Promise<HttpServer> {
  const child = spawn(TSX, [MAIN, "serve", "--http", "127.0.0.1:0", "--json", ...serveArgs], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  let stdout = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 45_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split("\n")) {
        if (!line.startsWith("{")) continue;
        const event = JSON.parse(line) as { event?: string; url?: string };
        if (event.event === "listening" && event.url) {
          clearTimeout(timer);
          resolve(event.url);
        }
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  return {
    url,
    child,
    stderr: () => `${log}${stdout ? `\n[stdout]\n${stdout}` : ""}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "skillgate-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export interface HttpPerTest {
  /** Keeps a fixture of the current test, removed after it. */
  keep(fixture: Fixture): Fixture;
  /** `serve --http 127.0.0.1:0 --workspace --config` of the fixture (plus `extra` flags), stopped after the test. */
  serve(fixture: Fixture, extra?: string[]): Promise<HttpServer>;
  /** A client of `url`, closed after the test. */
  connect(url: string, headers?: Record<string, string>): Promise<Client>;
  /** Closes one client now (the test goes on with the others). */
  close(client: Client): Promise<void>;
}

/**
 * The HTTP suites' per-test fixture, server and clients: closed, stopped and removed after each test (registers
 * the afterEach, so call it at the top of the test file).
 */
export function httpPerTest(): HttpPerTest {
  const slot = perTestSlot();
  const open = new Set<Client>();
  const close = async (client: Client) => {
    if (open.delete(client)) await client.close();
  };
  return {
    keep: slot.keep,
    async serve(made, extra = []) {
      slot.keep(made);
      const server = await startHttpServer(servedArgs(made, extra), made.env);
      slot.onEnd(() => server.stop());
      return server;
    },
    async connect(url, headers) {
      const client = await connectHttp(url, headers);
      open.add(client);
      slot.onEnd(() => close(client));
      return client;
    },
    close,
  };
}

export interface CallOutcome {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return {
    isError: result.isError === true,
    text,
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
  };
}

/** A request the SDK has no typed helper for (skills/list, skills/get, …), answered as plain JSON. */
export async function rpc(
  client: Client,
  method: string,
  params: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read these JSON results field by field.
): Promise<any> {
  return client.request({ method, params } as never, z.looseObject({}));
}

/**
 * Calls a tool and validates its structuredContent, success or error, against the outputSchema tools/list gave
 * (the SDK client itself checks successful results only).
 */
export class ValidatingClient {
  private readonly validators = new Map<string, ValidateFunction>();
  /** How many results were validated (a test asserts it is not zero). */
  validated = 0;

  constructor(readonly client: Client) {}

  async call(name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
    if (this.validators.size === 0) {
      const ajv = new Ajv({ strict: false, allErrors: true });
      for (const tool of (await this.client.listTools()).tools) {
        if (!tool.outputSchema) throw new Error(`tool ${tool.name} has no outputSchema`);
        this.validators.set(tool.name, ajv.compile(tool.outputSchema));
      }
    }
    const outcome = await call(this.client, name, args);
    const validate = this.validators.get(name);
    if (!validate) throw new Error(`tool ${name} is not listed`);
    if (!validate(outcome.structured)) {
      throw new Error(
        `${name} structuredContent does not match its outputSchema: ${JSON.stringify(validate.errors)}\n${JSON.stringify(outcome.structured).slice(0, 2000)}`,
      );
    }
    this.validated += 1;
    return outcome;
  }

  /** Calls a tool that must succeed; the failure message is the tool's own text. */
  async ok(name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
    const outcome = await this.call(name, args);
    if (outcome.isError) throw new Error(`${name} failed:\n${outcome.text}`);
    return outcome;
  }
}
