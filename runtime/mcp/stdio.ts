// Serves the tools over stdio: stdout carries only the protocol, logs go to the given stderr writer.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Session } from "../tools/types.js";
import { createMcpServer } from "./server.js";

export interface StdioServing {
  /** Resolves when the client disconnects (stdin closes). */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveStdio(session: Session, log: (message: string) => void): Promise<StdioServing> {
  const mcp = createMcpServer(session, { log });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await mcp.connect(transport);
  return { closed, close: () => mcp.close() };
}
