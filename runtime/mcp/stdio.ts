// Serves the tools over stdio: stdout carries only the protocol, logs go to the given stderr writer.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Session } from "../tools/index.js";
import { createMcpServer } from "./server.js";

export interface StdioServing {
  /** Resolves when the client disconnects (stdin closes) and every running tool call has answered. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(session: Session, log: (message: string) => void): Promise<StdioServing> {
  const inFlight = new Set<Promise<unknown>>();
  const mcp = createMcpServer(session, { log, inFlight });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    // A client may close its end of stdin right after its last request: answer what is still running first.
    const finish = () => {
      void Promise.allSettled([...inFlight]).then(() => setImmediate(resolve));
    };
    transport.onclose = finish;
    process.stdin.once("end", finish);
  });
  await mcp.connect(transport);
  return { closed, close: () => mcp.close() };
}
