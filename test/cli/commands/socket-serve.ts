// `skillgate serve --socket` as a child process for the connect/serve-socket suites: started, polled until listening, stopped.
import { type ChildProcess, spawn } from "node:child_process";
import { MAIN, TSX } from "../../mcp/helpers.js";
import { REPO_ROOT } from "../../tools/helpers.js";

export interface SocketServer {
  child: ChildProcess;
  /** The {event: "listening"} line serve --json printed on stderr. */
  listening: { event: string; socket: string; mode: string; workspace: string };
  stderr(): string;
  /** SIGTERM, then the exit code and signal. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `serve --socket SOCKET --json ...args` and waits (polling its stderr) for the listening line. */
export async function startSocketServer(
  socket: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<SocketServer> {
  const child = spawn(TSX, [MAIN, "serve", "--socket", socket, "--json", ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const line = log.split("\n").find((text) => text.startsWith('{"event":"listening"'));
    if (line) {
      return {
        child,
        listening: JSON.parse(line),
        stderr: () => log,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          return exited;
        },
      };
    }
    if (child.exitCode !== null) throw new Error(`serve --socket exited with ${child.exitCode}:\n${log}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`serve --socket did not listen within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
