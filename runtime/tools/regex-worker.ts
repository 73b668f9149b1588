// Runs an agent's regular expression in a worker thread, so a catastrophic pattern is cut off by a timeout, not hanging the server.
import { Worker } from "node:worker_threads";

// Plain JS so the same source runs from sources (tests) and from dist/.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, pattern, flags, lines }) => {
  const re = new RegExp(pattern, flags);
  const hits = [];
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) hits.push(i);
  parentPort.postMessage({ id, hits });
});
`;

export class RegexTimeout extends Error {}

/** Added to each budget for posting the lines and the answer between threads (and a busy machine). */
const MESSAGE_SLACK_MS = 250;

/** One worker per search; `close()` when done. */
export class RegexRunner {
  private worker: Worker | null = null;
  private next = 0;

  constructor(
    private readonly pattern: string,
    private readonly flags: string,
  ) {}

  /** Indices of the lines the pattern matches; RegexTimeout when the worker runs past `timeoutMs`. */
  async match(lines: string[], timeoutMs: number): Promise<Set<number>> {
    if (!this.worker) {
      const started = new Worker(WORKER_SOURCE, { eval: true });
      // The clock starts once the worker runs: its start-up is not the pattern's time.
      await new Promise<void>((resolve, reject) => {
        started.once("online", resolve);
        started.once("error", reject);
      });
      this.worker = started;
    }
    const worker = this.worker;
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.close();
        reject(new RegexTimeout());
      }, timeoutMs + MESSAGE_SLACK_MS);
      const onMessage = (message: { id: number; hits: number[] }) => {
        if (message.id !== id) return;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        resolve(new Set(message.hits));
      };
      const onError = (error: Error) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        reject(error);
      };
      worker.on("message", onMessage);
      worker.once("error", onError);
      worker.postMessage({ id, pattern: this.pattern, flags: this.flags, lines });
    });
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}
