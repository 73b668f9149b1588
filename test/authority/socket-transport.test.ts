// The MCP transport over a unix socket (authority/socket-transport.ts): stdio framing both ways, requests tracked until answered, garbage disconnects.
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SocketTransport } from "../../runtime/authority/socket-transport.js";
import { tempRoot } from "../support/workspace.js";

const root = tempRoot("skillgate-transport-");
const path = root.path("t.sock");
let server: Server;
let accepted: Promise<Socket>;
let onAccept: (socket: Socket) => void;
const open: Socket[] = [];

beforeAll(async () => {
  server = createServer({ allowHalfOpen: true }, (socket) => {
    open.push(socket);
    onAccept(socket);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.destroy();
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  root.cleanup();
});

/** A connected pair: the raw client socket and the server side wrapped in a started transport. */
async function pair(): Promise<{ client: Socket; transport: SocketTransport; received: JSONRPCMessage[] }> {
  accepted = new Promise((resolve) => {
    onAccept = resolve;
  });
  const client = createConnection({ path, allowHalfOpen: true });
  open.push(client);
  await new Promise<void>((resolve) => client.once("connect", () => resolve()));
  const transport = new SocketTransport(await accepted);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  return { client, transport, received };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const request = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

describe("SocketTransport", () => {
  it("reads newline-delimited JSON-RPC split across chunks, and writes in the same framing", async () => {
    const { client, transport, received } = await pair();
    const text = `${JSON.stringify(request(1))}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`;
    client.write(text.slice(0, 17));
    client.write(text.slice(17));
    await until("two messages", () => received.length === 2);
    expect(received).toEqual([request(1), { jsonrpc: "2.0", method: "notifications/initialized" }]);
    let bytes = "";
    client.on("data", (chunk: Buffer) => {
      bytes += chunk.toString();
    });
    await transport.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    await until("the answer", () => bytes.endsWith("\n"));
    expect(bytes).toBe(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } })}\n`);
  });

  it("is idle only once every request received has been answered; notifications are never waited for", async () => {
    const { client, transport, received } = await pair();
    await transport.whenIdle();
    client.write(`${JSON.stringify(request(1))}\n${JSON.stringify(request(2))}\n`);
    client.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} })}\n`);
    await until("three messages", () => received.length === 3);
    let idle = false;
    const waiting = transport.whenIdle().then(() => {
      idle = true;
    });
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    // A notification sent by this side answers nothing.
    await transport.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    });
    expect(idle).toBe(false);
    await transport.send({ jsonrpc: "2.0", id: 2, result: {} });
    await waiting;
    expect(idle).toBe(true);
  });

  it("bytes that are not JSON-RPC report an error, close the transport and end the socket", async () => {
    const { client, transport } = await pair();
    const errors: string[] = [];
    let closed = 0;
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => {
      closed += 1;
    };
    let ended = false;
    client.on("end", () => {
      ended = true;
    });
    client.write("this is not json\n");
    await until("the close", () => closed === 1 && ended);
    expect(errors).toHaveLength(1);
    await expect(transport.send({ jsonrpc: "2.0", id: 1, result: {} })).rejects.toThrow(
      "the socket is closed",
    );
    // Closing again reports nothing twice.
    await transport.close();
    expect(closed).toBe(1);
  });

  it("closing wakes whoever waits for idle, and a transport starts only once", async () => {
    const { client, transport, received } = await pair();
    let ended = false;
    client.on("end", () => {
      ended = true;
    });
    client.write(`${JSON.stringify(request(7))}\n`);
    await until("the request", () => received.length === 1);
    const waiting = transport.whenIdle();
    await transport.close();
    await waiting;
    // Closed: nothing is left to wait for.
    await transport.whenIdle();
    await until("the socket to end", () => ended);
    await expect(transport.start()).rejects.toThrow("SocketTransport already started");
  });
});
