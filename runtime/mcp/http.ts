// Serves the tools over Streamable HTTP at /mcp: one transport + server per MCP session, all sharing one Session.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { spawnOffThread } from "../exec/index.js";
import type { Session } from "../tools/index.js";
import {
  checkBindPolicy,
  guardRequest,
  type HttpAuthOptions,
  isLoopbackHost,
  ownOrigins,
} from "./http-guard.js";
import { createMcpServer } from "./server.js";

export const MCP_PATH = "/mcp";
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpServing {
  host: string;
  port: number;
  /** e.g. http://127.0.0.1:8765/mcp */
  url: string;
  /** Number of open MCP sessions. */
  sessions(): number;
  close(): Promise<void>;
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length === 0 ? undefined : JSON.parse(text);
}

export async function serveHttp(
  session: Session,
  address: { host: string; port: number },
  log: (message: string) => void,
  auth: HttpAuthOptions = {},
): Promise<HttpServing> {
  checkBindPolicy(address.host, auth);
  // Many calls at once: each sandbox's spawn would block this event loop until the child exec'd (exec/spawn/thread.ts).
  spawnOffThread(true);
  /** Origins a browser may send; completed once the port is known. */
  const allowedOrigins = new Set((auth.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));
  const transports = new Map<string, StreamableHTTPServerTransport>();
  /** Host headers accepted on a loopback bind (DNS-rebinding protection); set once the port is known. */
  let allowedHosts: string[] | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const verdict = guardRequest(req, allowedOrigins, auth.authToken);
    if (!verdict.ok) {
      jsonRpcError(res, verdict.status, verdict.message, verdict.headers);
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_PATH) {
      jsonRpcError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (req.method === "POST") {
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (error) {
        jsonRpcError(res, 400, `Bad request body: ${(error as Error).message}`);
        return;
      }
      if (existing) {
        await existing.handleRequest(req, res, body);
        return;
      }
      if (sessionId === undefined && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {}),
          onsessioninitialized: (id) => {
            transports.set(id, transport);
            log(`MCP session ${id} opened (${transports.size} open)`);
          },
        });
        transport.onclose = () => {
          if (transport.sessionId && transports.delete(transport.sessionId)) {
            log(`MCP session ${transport.sessionId} closed (${transports.size} open)`);
          }
        };
        const mcp = createMcpServer(session, { log });
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      jsonRpcError(
        res,
        400,
        sessionId === undefined
          ? "Bad request: no mcp-session-id header and not an initialize request"
          : `Bad request: unknown MCP session ${String(sessionId)}; initialize a new session`,
      );
      return;
    }
    if ((req.method === "GET" || req.method === "DELETE") && existing) {
      await existing.handleRequest(req, res);
      return;
    }
    if (req.method === "GET" || req.method === "DELETE") {
      jsonRpcError(res, 400, "Bad request: missing or unknown mcp-session-id header");
      return;
    }
    jsonRpcError(res, 405, `Method ${req.method} not allowed on ${MCP_PATH}`);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(
        `internal error while handling ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`,
      );
      if (!res.headersSent) jsonRpcError(res, 500, "Internal server error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const hostInUrl = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  for (const origin of ownOrigins(address.host, bound.port)) allowedOrigins.add(origin);
  if (isLoopbackHost(address.host)) {
    allowedHosts = [
      `${hostInUrl}:${bound.port}`,
      `127.0.0.1:${bound.port}`,
      `localhost:${bound.port}`,
      `[::1]:${bound.port}`,
    ];
  }
  return {
    host: bound.address,
    port: bound.port,
    url: `http://${hostInUrl}:${bound.port}${MCP_PATH}`,
    sessions: () => transports.size,
    close: async () => {
      for (const transport of [...transports.values()]) await transport.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
