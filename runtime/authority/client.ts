// The client side of a socket server: open a connection with actionable errors, call one tool, or relay stdio (connect).
import { createConnection, type Socket } from "node:net";
import { userInfo } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolResult } from "../contracts/index.js";
import type { ErrorCode } from "../errors.js";
import { unreachable } from "./errors.js";
import type { ServerRecord } from "./record.js";
import { SocketTransport } from "./socket-transport.js";

function whoServes(record: ServerRecord | null): string {
  if (!record) return "";
  const kind = record.mode === "authority" ? "the skillgate authority" : "a skillgate server";
  return ` (${kind} of ${record.workspace}, user ${record.user}, pid ${record.pid}, started ${record.started_at})`;
}

function me(): string {
  try {
    const info = userInfo();
    return `user ${info.username} (uid ${info.uid})`;
  } catch {
    return `uid ${process.getuid?.() ?? "?"}`;
  }
}

/** Connects to `path`; errors say who should be listening and how to fix it. */
export function openSocket(path: string, record: ServerRecord | null = null): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ path, allowHalfOpen: true });
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      if (code === "EACCES" || code === "EPERM") {
        reject(
          unreachable(
            path,
            `${me()} may not connect to unix socket ${path}${whoServes(record)} (${code})`,
            "the operator adds this user to the socket's group (usermod -aG GROUP USER, then log in again) or serves with a --socket-group / --socket-mode that includes it",
          ),
        );
        return;
      }
      const restart =
        record?.mode === "authority"
          ? "ask the operator to start the authority again (e.g. systemctl start skillgate-authority)"
          : `start it again with \`skillgate serve --socket ${path} --workspace ${record?.workspace ?? "WS"}\`, or delete ${record?.workspace ?? "WS"}/.ucagent/skillgate/server.json to work without it`;
      reject(
        unreachable(
          path,
          `nothing answers on unix socket ${path}${whoServes(record)} (${code})`,
          record ? restart : "check the path, and that `skillgate serve --socket` or `--authority` runs",
        ),
      );
    });
  });
}

/** An MCP SDK client over the socket. */
export async function connectClient(path: string, record: ServerRecord | null = null): Promise<Client> {
  const socket = await openSocket(path, record);
  const client = new Client({ name: "skillgate-call", version: "0.1.0" });
  await client.connect(new SocketTransport(socket));
  return client;
}

/** Calls one tool on the server and returns it as the local registry would have (code moved back out of structured). */
export async function callOverSocket(
  path: string,
  record: ServerRecord | null,
  tool: string,
  args: unknown,
): Promise<ToolResult> {
  const client = await connectClient(path, record);
  try {
    const result = await client.callTool({ name: tool, arguments: args as Record<string, unknown> });
    const content = (result.content ?? []) as { type: string; text?: string }[];
    const text = content
      .filter((part) => part.type === "text")
      .map((part) => part.text ?? "")
      .join("\n");
    const structured = { ...((result.structuredContent ?? {}) as Record<string, unknown>) };
    const isError = result.isError === true;
    // toCallToolResult carries the code inside structuredContent (also on non-error results such as SKILLS_DISABLED).
    const code = typeof structured.code === "string" ? (structured.code as ErrorCode) : undefined;
    if (code !== undefined) delete structured.code;
    return { text, structured, isError, ...(code ? { code } : {}) };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Relays bytes between stdio and the socket until either side ends. The framing on the socket is stdio's, so
 * nothing is parsed: any stdio MCP client talks to the server as if it had started it.
 */
export async function relayStdio(
  socket: Socket,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<void> {
  await new Promise<void>((resolve) => {
    input.pipe(socket, { end: true });
    socket.pipe(output, { end: false });
    socket.once("end", () => resolve());
    socket.once("close", () => resolve());
    socket.once("error", () => resolve());
  });
}
