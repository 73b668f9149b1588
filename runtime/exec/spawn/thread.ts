// Spawns a run's child on a worker thread and stands in for it here: pid, pipes relayed as streams, exit, ref/unref.
import { EventEmitter } from "node:events";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";
import { type FromThread, type RelayedError, spawnThreadBody, type ToThread } from "./thread-body.js";

export interface ThreadSpawnInput {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdio: Array<"ignore" | "pipe" | number>;
  /** Bytes the child reads on these pipe entries (then end of file); they get no stream here. */
  feeds: Array<{ fd: number; bytes: Buffer }>;
}

/** One pipe of a relayed child: what the thread reads arrives here in order; what is written here goes to the thread. */
class RelayedPipe extends Duplex {
  constructor(
    private readonly post: (message: ToThread) => void,
    private readonly id: number,
    private readonly fd: number,
  ) {
    // Like a child's socket: once the far end closed its side, this one ends too.
    super({ allowHalfOpen: false });
  }
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.post({ t: "write", id: this.id, fd: this.fd, bytes: new Uint8Array(chunk) });
    done();
  }
  override _final(done: (error?: Error | null) => void): void {
    this.post({ t: "end", id: this.id, fd: this.fd });
    done();
  }
  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.post({ t: "destroy", id: this.id, fd: this.fd });
    done(error);
  }
}

/** The main thread's view of a child the spawn thread started: the parts of ChildProcess a run uses. */
export class RelayedChild extends EventEmitter {
  pid: number | undefined = undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdio: Array<RelayedPipe | null>;
  referenced = true;
  live = true;

  constructor(
    input: ThreadSpawnInput,
    post: (message: ToThread) => void,
    id: number,
    private readonly onRef: () => void,
  ) {
    super();
    const fed = new Set(input.feeds.map((feed) => feed.fd));
    this.stdio = input.stdio.map((entry, fd) =>
      entry === "pipe" && !fed.has(fd) ? new RelayedPipe(post, id, fd) : null,
    );
  }
  get stdout(): RelayedPipe | null {
    return this.stdio[1] ?? null;
  }
  get stderr(): RelayedPipe | null {
    return this.stdio[2] ?? null;
  }
  ref(): void {
    this.referenced = true;
    this.onRef();
  }
  unref(): void {
    this.referenced = false;
    this.onRef();
  }
  kill(signal: NodeJS.Signals = "SIGTERM"): boolean {
    if (this.pid === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

function errorFrom(relayed: RelayedError): NodeJS.ErrnoException {
  return Object.assign(new Error(relayed.message), relayed);
}

interface Entry {
  child: RelayedChild;
  started: { resolve(): void; reject(error: Error): void };
}

/** One worker thread that spawns every run's child of this process; started on first use, never keeps it alive idle. */
export class SpawnThread {
  private worker: Worker | null = null;
  private nextId = 1;
  /** Children spawned on the thread so far. */
  spawned = 0;
  private readonly entries = new Map<number, Entry>();

  /** The child stands in at once (listen on it now); `started` resolves once it has a pid, or rejects as spawn() throws. */
  spawn(input: ThreadSpawnInput): { child: RelayedChild; started: Promise<void> } {
    const worker = this.worker ?? this.startWorker();
    const id = this.nextId++;
    this.spawned++;
    const post = (message: ToThread): void => worker.postMessage(message);
    const child = new RelayedChild(input, post, id, () => this.updateRef());
    const started = new Promise<void>((resolve, reject) => {
      this.entries.set(id, { child, started: { resolve, reject } });
    });
    this.updateRef();
    const feeds = input.feeds.map(({ fd, bytes }) => ({ fd, bytes: new Uint8Array(bytes) }));
    post({ t: "spawn", id, ...input, feeds });
    return { child, started };
  }

  /** Children this thread spawned whose pipes or exit are still to come. */
  get live(): number {
    return this.entries.size;
  }

  private startWorker(): Worker {
    // A bundle built with esbuild's keepNames wraps inner functions in __name(); the worker has no such helper.
    const worker = new Worker(
      `var __name = (target) => target;\n(${spawnThreadBody.toString()})(require, require("node:worker_threads").parentPort)`,
      { eval: true, stdout: false, stderr: false },
    );
    worker.on("message", (message: FromThread) => this.receive(message));
    // Should the thread die, its children's pipes die with it: their runs end as killed, and the next spawn
    // starts a new thread.
    const lost = (): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const [id, entry] of [...this.entries]) this.fail(id, entry, "the spawn thread stopped");
    };
    worker.on("error", lost);
    worker.on("exit", lost);
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private fail(id: number, entry: Entry, why: string): void {
    this.entries.delete(id);
    const { child } = entry;
    if (child.pid === undefined) {
      entry.started.reject(new Error(why));
      return;
    }
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone already
    }
    for (const pipe of child.stdio) pipe?.destroy();
    if (child.exitCode === null && child.signalCode === null) {
      child.signalCode = "SIGKILL";
      child.emit("exit", null, "SIGKILL");
    }
    this.updateRef();
  }

  private receive(message: FromThread): void {
    const entry = this.entries.get(message.id);
    if (entry === undefined) return;
    const { child } = entry;
    switch (message.t) {
      case "spawned":
        child.pid = message.pid;
        entry.started.resolve();
        return;
      case "thrown":
        this.entries.delete(message.id);
        this.updateRef();
        entry.started.reject(errorFrom(message.error));
        return;
      case "error":
        child.emit("error", errorFrom(message.error));
        return;
      case "data":
        child.stdio[message.fd]?.push(
          Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength),
        );
        return;
      case "end":
        child.stdio[message.fd]?.push(null);
        return;
      case "close": {
        // A pipe closed without its end (a reset): what it read is still delivered, then it closes here too.
        const pipe = child.stdio[message.fd];
        if (pipe === null || pipe === undefined || pipe.destroyed) return;
        if (!pipe.readableEnded) pipe.push(null);
        if (pipe.readableLength === 0) pipe.destroy();
        else pipe.once("end", () => pipe.destroy());
        return;
      }
      case "exit":
        child.exitCode = message.code;
        child.signalCode = message.signal;
        child.emit("exit", message.code, message.signal);
        return;
      case "gone":
        child.live = false;
        this.entries.delete(message.id);
        this.updateRef();
        return;
    }
  }

  /** The thread keeps the process alive exactly while a referenced child is not yet gone (as a child and its pipes would). */
  private updateRef(): void {
    if (this.worker === null) return;
    let wanted = false;
    for (const { child } of this.entries.values()) if (child.referenced && child.live) wanted = true;
    if (wanted) this.worker.ref();
    else this.worker.unref();
  }
}
