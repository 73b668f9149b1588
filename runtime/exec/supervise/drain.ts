// Waits for a finished run's pipes to close, bounded, so a killed tree's half-open pipes never hold a result.
import type { Readable } from "node:stream";

/**
 * Waits for both pipes to close, destroying them after `graceMs` (a killed tree may leave them half open).
 * The grace timer is cleared as soon as the pipes close: left running it kept a one-shot CLI process alive
 * for the whole grace period after every run.
 */
export async function drain(streams: Readable[], graceMs: number): Promise<void> {
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(
      streams.map(
        (stream) =>
          new Promise<void>((resolve) => {
            if (stream.destroyed || stream.readableEnded) resolve();
            else stream.once("close", () => resolve());
          }),
      ),
    ),
    new Promise<void>((resolve) => {
      grace = setTimeout(resolve, graceMs);
    }),
  ]);
  clearTimeout(grace);
  for (const stream of streams) stream.destroy();
}
