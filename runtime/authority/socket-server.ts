// Serves the tools over a unix socket: one MCP server per connection, all sharing one Session; socket mode/group set by the operator.
import { chmod, chown, lstat, unlink } from "node:fs/promises";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { createMcpServer } from "../mcp/index.js";
import type { Session } from "../tools/index.js";
import { socketError } from "./errors.js";
import { SocketTransport } from "./socket-transport.js";

/** sun_path is 108 bytes on Linux (104 on macOS) including the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = process.platform === "darwin" ? 103 : 107;

export interface SocketOptions {
  path: string;
  /** File mode of the socket; connecting needs write permission on it (default 0o660). */
  mode?: number;
  /** Group given to the socket (null: keep the creator's group). */
  gid?: number | null;
}

export interface SocketServing {
  path: string;
  /** Open client connections. */
  connections(): number;
  close(): Promise<void>;
}

/** True when something accepts connections at `path` (a live server), false when nothing answers. */
export function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

/** Removes a socket file left by a server that died; refuses anything else found at the path. */
async function clearStaleSocket(path: string): Promise<void> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw socketError(path, `cannot inspect it (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!info.isSocket()) {
    throw socketError(path, "it exists and is not a socket", "remove it or choose another --socket path");
  }
  if (await socketAnswers(path)) {
    throw socketError(
      path,
      "another skillgate server is already listening there",
      "stop that server first, or choose another --socket path",
    );
  }
  await unlink(path);
}

async function listen(server: Server, path: string): Promise<void> {
  // The socket is created with mode 0600 (umask 0177 around the bind, which happens synchronously in listen())
  // so no one else can connect before chmod/chown below open it to the operator's group.
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } finally {
    process.umask(previous);
  }
}

export async function serveSocket(
  session: Session,
  options: SocketOptions,
  log: (message: string) => void,
): Promise<SocketServing> {
  const { path } = options;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw socketError(
      path,
      `the path is ${Buffer.byteLength(path)} bytes, over the ${MAX_SOCKET_PATH_BYTES}-byte limit of unix sockets`,
      "pass a shorter --socket path, e.g. /run/skillgate/<name>.sock",
    );
  }
  await clearStaleSocket(path);
  const sockets = new Set<Socket>();
  let served = 0;
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    const id = ++served;
    sockets.add(socket);
    const mcp = createMcpServer(session, { log });
    const transport = new SocketTransport(socket);
    // The client may half-close right after its last request (as `skillgate connect` does when stdin ends):
    // answer every request already received, then close our side.
    socket.on("end", () => {
      void transport.whenIdle().then(() => socket.end());
    });
    socket.on("close", () => {
      sockets.delete(socket);
      void mcp.close().catch(() => undefined);
      log(`socket client ${id} disconnected (${sockets.size} connected)`);
    });
    mcp.connect(transport).then(
      () => log(`socket client ${id} connected (${sockets.size} connected)`),
      (error: unknown) => {
        log(`socket client ${id}: ${(error as Error).message}`);
        socket.destroy();
      },
    );
  });
  try {
    await listen(server, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw socketError(path, `cannot listen there (${code})`, "check that its folder exists and is writable");
  }
  try {
    if (options.gid !== undefined && options.gid !== null) await chown(path, -1, options.gid);
    await chmod(path, options.mode ?? 0o660);
  } catch (error) {
    server.close();
    await unlink(path).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw socketError(
      path,
      `cannot give it group ${options.gid} and mode ${(options.mode ?? 0o660).toString(8)} (${code})`,
      "the serving user must be a member of the --socket-group it sets (usermod -aG GROUP USER)",
    );
  }
  return {
    path,
    connections: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(path).catch(() => undefined);
    },
  };
}
