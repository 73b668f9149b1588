// Test support for socket servers: start `serve --socket/--authority` (optionally as another OS user), run CLI verbs, wait on conditions.
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export interface Runner {
  /** argv prefix that runs a command as the wanted user ([] = this process's user). */
  prefix: string[];
  /** tsx and the CLI entry this user can execute. */
  tsx: string;
  main: string;
  cwd: string;
}

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `skillgate <args>` as the runner's user and collects its output. */
export function skillgate(
  runner: Runner,
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<Outcome> {
  const argv = [...runner.prefix, runner.tsx, runner.main, ...args];
  return run(argv, env, runner.cwd, input);
}

export function run(argv: string[], env: NodeJS.ProcessEnv, cwd: string, input?: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading its input closes the pipe first: EPIPE then is no failure of the
    // test (the exit code and output say how the command went), only an unhandled error if left unheard.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(input ?? "");
  });
}

export interface ServerProcess {
  child: ChildProcess;
  socket: string;
  /** Streamable HTTP URL when served with --http. */
  url: string | null;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `serve --json <args>` and waits for its "listening" line on stderr. */
export async function startServer(
  runner: Runner,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ServerProcess> {
  const argv = [...runner.prefix, runner.tsx, runner.main, "serve", "--json", ...args];
  const child = spawn(argv[0]!, argv.slice(1), { env, cwd: runner.cwd, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  let url: string | null = null;
  const socket = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 50_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      for (const line of log.split("\n")) {
        if (!line.startsWith("{")) continue;
        const event = JSON.parse(line) as { event?: string; socket?: string; url?: string };
        if (event.event === "listening" && event.socket) {
          clearTimeout(timer);
          url = event.url ?? null;
          resolve(event.socket);
        }
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  return {
    child,
    socket,
    url,
    stderr: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface Bridged {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** The real MCP SDK client over stdio into `skillgate connect <args>` run as the runner's user. */
export async function connectBridge(
  runner: Runner,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<Bridged> {
  const argv = [...runner.prefix, runner.tsx, runner.main, "connect", ...args];
  const transport = new StdioClientTransport({
    command: argv[0]!,
    args: argv.slice(1),
    env: env as Record<string, string>,
    cwd: runner.cwd,
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const client = new Client({ name: "skillgate-authority-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, stderr: () => log, close: () => client.close() };
}

/** Polls `condition` until it holds (no fixed sleeps); fails with `what` after the timeout. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
