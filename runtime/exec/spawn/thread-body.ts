// The spawn thread's own code: spawns what the main thread asks for and relays each child's pipes and exit back to it.
import type { ChildProcess, StdioOptions } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { MessagePort } from "node:worker_threads";

/** What the main thread sends: a spawn, or a write / end / destroy of one pipe of a child. */
export type ToThread =
  | {
      t: "spawn";
      id: number;
      file: string;
      args: string[];
      cwd: string;
      env: Record<string, string>;
      /** Every entry resolved: "ignore", "pipe" or a descriptor number of this process. */
      stdio: Array<"ignore" | "pipe" | number>;
      /** Bytes written to these pipes, then their end (the child reads them). */
      feeds: Array<{ fd: number; bytes: Uint8Array }>;
    }
  | { t: "write"; id: number; fd: number; bytes: Uint8Array }
  | { t: "end" | "destroy"; id: number; fd: number };

export interface RelayedError {
  message: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/** What the thread sends back, in the order it happened. */
export type FromThread =
  | { t: "spawned"; id: number; pid: number | undefined }
  | { t: "thrown" | "error"; id: number; error: RelayedError }
  | { t: "data"; id: number; fd: number; bytes: Uint8Array }
  | { t: "end" | "close"; id: number; fd: number }
  | { t: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: "gone"; id: number };

/**
 * Runs inside the worker (started with `eval` from this function's source, so it must not use anything outside
 * itself: `load` is the worker's require). Why a thread: libuv's spawn forks and then blocks its thread until the
 * child has exec'd; here that wait stalls this thread only, not the server's event loop.
 */
export function spawnThreadBody(load: (id: string) => unknown, port: MessagePort): void {
  const { spawn } = load("node:child_process") as typeof import("node:child_process");
  const children = new Map<number, ChildProcess>();
  const send = (message: FromThread, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);
  const errorOf = (error: unknown): RelayedError => {
    const e = error as NodeJS.ErrnoException;
    return {
      message: e instanceof Error ? e.message : String(error),
      ...(e?.code === undefined ? {} : { code: e.code }),
      ...(e?.errno === undefined ? {} : { errno: e.errno }),
      ...(e?.syscall === undefined ? {} : { syscall: e.syscall }),
      ...(e?.path === undefined ? {} : { path: e.path }),
    };
  };
  const start = (message: Extract<ToThread, { t: "spawn" }>): void => {
    const { id } = message;
    let child: ChildProcess;
    try {
      child = spawn(message.file, message.args, {
        cwd: message.cwd,
        env: message.env,
        detached: true,
        stdio: message.stdio as StdioOptions,
      });
    } catch (error) {
      send({ t: "thrown", id, error: errorOf(error) });
      return;
    }
    children.set(id, child);
    send({ t: "spawned", id, pid: child.pid });
    const feeds = new Map(message.feeds.map((feed) => [feed.fd, feed.bytes]));
    child.stdio.forEach((stream, fd) => {
      if (stream === null || stream === undefined) return;
      stream.on("error", () => undefined);
      const feed = feeds.get(fd);
      if (feed !== undefined) {
        (stream as Writable).end(Buffer.from(feed.buffer, feed.byteOffset, feed.byteLength));
        return;
      }
      (stream as Readable).on("data", (chunk: Buffer) => {
        // A copy of exactly these bytes, moved (not cloned) to the main thread.
        const bytes = new Uint8Array(chunk);
        send({ t: "data", id, fd, bytes }, [bytes.buffer as ArrayBuffer]);
      });
      stream.once("end", () => send({ t: "end", id, fd }));
      stream.once("close", () => send({ t: "close", id, fd }));
    });
    child.once("error", (error) => send({ t: "error", id, error: errorOf(error) }));
    child.once("exit", (code, signal) => send({ t: "exit", id, code, signal }));
    // The child's own "close" listener on its last pipe runs before ours: "gone" waits until that pipe's "close" is sent.
    child.once("close", () =>
      setImmediate(() => {
        children.delete(id);
        send({ t: "gone", id });
      }),
    );
  };
  port.on("message", (message: ToThread) => {
    if (message.t === "spawn") return start(message);
    const stream = children.get(message.id)?.stdio[message.fd];
    if (stream === null || stream === undefined) return;
    if (message.t === "write") (stream as Writable).write(Buffer.from(message.bytes));
    else if (message.t === "end") (stream as Writable).end();
    else stream.destroy();
  });
}
