// JSON-RPC errors with a clean message: the SDK's McpError would prefix "MCP error <code>:" to what the client sees.
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }
}

/** -32602: unknown tool, prompt, skill or resource, or bad params. */
export function invalidParams(message: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, data);
}

export function internalError(message: string, data?: unknown): RpcError {
  return new RpcError(ErrorCode.InternalError, message, data);
}
