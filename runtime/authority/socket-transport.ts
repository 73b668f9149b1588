// An MCP transport over one stream socket (unix socket): newline-delimited JSON-RPC, the same framing as stdio.
import type { Socket } from "node:net";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Used on both ends: the authority wraps each accepted connection, `skillgate call` wraps its client socket.
 * Because the framing is stdio's, `skillgate connect` can relay bytes without parsing them.
 */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private started = false;
  private closed = false;
  /** Ids of requests received and not answered yet, and who waits for none to be left. */
  private readonly pending = new Set<string | number>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly socket: Socket) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("SocketTransport already started");
    this.started = true;
    this.socket.on("data", (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
        for (;;) {
          const message = this.buffer.readMessage();
          if (message === null) break;
          if ("method" in message && "id" in message) this.pending.add(message.id);
          this.onmessage?.(message);
        }
      } catch (error) {
        // A peer sending bytes that are not JSON-RPC gets disconnected; the error is reported first.
        this.onerror?.(error as Error);
        void this.close();
      }
    });
    this.socket.on("error", (error) => this.onerror?.(error));
    this.socket.on("close", () => this.finish());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.closed || this.socket.destroyed || !this.socket.writable) {
        reject(new Error("the socket is closed"));
        return;
      }
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    }).finally(() => {
      if (!("method" in message) && "id" in message && message.id !== undefined) {
        this.pending.delete(message.id);
        if (this.pending.size === 0) this.wakeIdle();
      }
    });
  }

  /** Resolves once every request received so far has been answered (or the socket closed). */
  whenIdle(): Promise<void> {
    if (this.pending.size === 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  async close(): Promise<void> {
    if (!this.socket.destroyed) this.socket.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.wakeIdle();
    this.onclose?.();
  }
}
