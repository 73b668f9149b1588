// Public API of authority mode: socket server and transport, the server record, client calls and the stdio bridge.
import type * as ClientModule from "./client.js";
import type * as ServeModule from "./serve.js";
import type * as SocketServerModule from "./socket-server.js";

export { callThroughServer, statusThroughServer } from "./call.js";
export { checkIdentity, prepareStateFolder, refuseForeignState, verifyStateFolder } from "./mode.js";
export type { ServerRecord } from "./record.js";
export { readServerRecord, serverRecordFile } from "./record.js";
export type { SocketServeOptions, SocketServer } from "./serve.js";
export type { SocketOptions, SocketServing } from "./socket-server.js";

// The client (MCP SDK client) and the server side (MCP server, Streamable HTTP, hono) load on first use: every
// `skillgate call` imports this folder, and re-exporting them here made each one load the whole MCP stack.
export const callOverSocket: typeof ClientModule.callOverSocket = async (...args) =>
  (await import("./client.js")).callOverSocket(...args);
export const connectClient: typeof ClientModule.connectClient = async (...args) =>
  (await import("./client.js")).connectClient(...args);
export const openSocket: typeof ClientModule.openSocket = async (...args) =>
  (await import("./client.js")).openSocket(...args);
export const relayStdio: typeof ClientModule.relayStdio = async (...args) =>
  (await import("./client.js")).relayStdio(...args);
export const startSocketServer: typeof ServeModule.startSocketServer = async (...args) =>
  (await import("./serve.js")).startSocketServer(...args);
export const serveSocket: typeof SocketServerModule.serveSocket = async (...args) =>
  (await import("./socket-server.js")).serveSocket(...args);
