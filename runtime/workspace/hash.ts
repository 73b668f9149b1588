// SHA-256 of files, streamed so large assets do not load whole into memory.
import { createHash } from "node:crypto";
import { closeSync, constants, createReadStream, fstatSync, openSync, readFileSync } from "node:fs";

/** Up to this size a file is read whole, synchronously: a stream costs four thread-pool round trips for one chunk. */
const WHOLE_READ_BYTES = 256 * 1024;

export function sha256File(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolvePromise(hash.digest("hex")));
  });
}

/**
 * sha256File for a file the caller just stat'ed: a small regular file is read whole, without a stream (a FIFO or
 * device stays on the stream: a synchronous read of one could block the process). The type and size that decide
 * are the opened descriptor's (opened non-blocking), so a file swapped for a FIFO or a big file after the caller's
 * stat is never read synchronously.
 */
export async function sha256FileOfStat(
  path: string,
  info: { size: bigint | number; isFile(): boolean },
): Promise<string> {
  if (!info.isFile() || Number(info.size) > WHOLE_READ_BYTES) return sha256File(path);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = fstatSync(fd);
    if (opened.isFile() && opened.size <= WHOLE_READ_BYTES) return sha256Bytes(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
  return sha256File(path);
}

export function sha256Bytes(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}
