// RpcError: JSON-RPC errors with a stable code and a clean message, as the real SDK client receives them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { internalError, invalidParams, RpcError } from "../../runtime/mcp/rpc-error.js";
import { createMcpServer } from "../../runtime/mcp/server.js";
import { type Fixture, makeFixture } from "../tools/helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("RpcError", () => {
  it("invalidParams is -32602 and internalError -32603, keeping message and data", () => {
    const bad = invalidParams("Unknown resource: x.", { uri: "x" });
    expect(bad).toBeInstanceOf(RpcError);
    expect(bad).toMatchObject({
      name: "RpcError",
      code: -32602,
      message: "Unknown resource: x.",
      data: { uri: "x" },
    });
    expect(internalError("FILE_IO_FAILED: disk", { code: "FILE_IO_FAILED" })).toMatchObject({
      code: -32603,
      message: "FILE_IO_FAILED: disk",
      data: { code: "FILE_IO_FAILED" },
    });
  });

  it("reaches the SDK client with its code and message prefixed once, never twice", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const server = createMcpServer(session);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "rpc-error", version: "0" });
    await client.connect(clientSide);
    try {
      await expect(client.readResource({ uri: "skill://a/../SKILL.md" })).rejects.toMatchObject({
        code: -32602,
        message:
          "MCP error -32602: Unknown resource: 'skill://a/../SKILL.md' has an empty, '.', '..' or slash-containing path segment.",
      });
      await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({
        code: -32602,
        message: "MCP error -32602: Unknown prompt \"nope\": this server has one prompt, 'current_stage'.",
      });
    } finally {
      await client.close();
    }
  });
});
