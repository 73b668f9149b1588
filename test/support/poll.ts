// Waiting on a condition in suites that watch real processes and cgroups: poll it, never sleep a fixed time.

/**
 * How long a poll may wait before the test fails: the condition is met in milliseconds on a quiet machine, but
 * files run side by side on a 2-core CI machine (vitest.config.ts), so a process may take seconds to be reaped.
 */
export const POLL_DEADLINE_MS = 30_000;

/** Resolves once `condition()` holds; throws naming `what` when it still does not after `ms`. */
export async function until(condition: () => boolean, what: string, ms = POLL_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
