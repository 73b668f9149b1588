// Collects a run's stdout and stderr in arrival order under one byte cap, minus a wrapper's first stderr line.
import type { Readable } from "node:stream";

export interface Output {
  /** Combined, stdout and stderr in arrival order. */
  output: string;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

function decode(buffers: Buffer[]): string {
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(buffers));
}

/** Listens on both pipes; `onCapped` fires once when the cap is passed (the run is killed for it). */
export function collectOutput(
  stdout: Readable,
  stderr: Readable,
  capBytes: number,
  onCapped: () => void,
  stderrPreamble?: RegExp,
): () => Output {
  const chunks: Buffer[] = [];
  const stdoutChunks: Buffer[] = [];
  const stderrChunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  const collect = (target: Buffer[]) => (chunk: Buffer) => {
    if (truncated) return;
    const room = capBytes - total;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    total += kept.length;
    if (kept.length > 0) {
      chunks.push(kept);
      target.push(kept);
    }
    if (chunk.length > room) {
      truncated = true;
      onCapped();
    }
  };
  stdout.on("data", collect(stdoutChunks));
  const toStderr = collect(stderrChunks);
  if (stderrPreamble === undefined) stderr.on("data", toStderr);
  else {
    // The wrapper writes its line before it execs the sandbox, so it is the very first stderr bytes.
    let head: Buffer | null = Buffer.alloc(0);
    const flushHead = (): void => {
      if (head === null) return;
      const match = stderrPreamble.exec(head.toString("latin1"));
      const rest = match?.index === 0 ? head.subarray(match[0].length) : head;
      head = null;
      if (rest.length > 0) toStderr(rest);
    };
    stderr.on("data", (chunk: Buffer) => {
      if (head === null) return toStderr(chunk);
      head = Buffer.concat([head, chunk]);
      if (head.includes(10) || head.length >= 128) flushHead();
    });
    stderr.once("end", flushHead);
  }
  return () => ({
    output: decode(chunks),
    stdout: decode(stdoutChunks),
    stderr: decode(stderrChunks),
    truncated,
  });
}
