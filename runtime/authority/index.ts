// Public API of authority mode: socket server and transport, the server record, client calls and the stdio bridge.
export { callThroughServer, statusThroughServer } from "./call.js";
export { callOverSocket, connectClient, openSocket, relayStdio } from "./client.js";
export { checkIdentity, prepareStateFolder, refuseForeignState, verifyStateFolder } from "./mode.js";
export type { ServerRecord } from "./record.js";
export { readServerRecord, serverRecordFile } from "./record.js";
export type { SocketServeOptions, SocketServer } from "./serve.js";
export { defaultSocketPath, startSocketServer } from "./serve.js";
export type { SocketOptions, SocketServing } from "./socket-server.js";
export { serveSocket } from "./socket-server.js";
export { SocketTransport } from "./socket-transport.js";
