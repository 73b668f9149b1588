// Waits for SIGINT or SIGTERM, then runs a server's close once; the listeners stay so no other handler ends the process first.
/**
 * Resolves after `close` finished, once SIGINT or SIGTERM arrived. The listeners are kept (`on`, not `once`) for
 * the whole close: signal-exit (loaded with the lock library, possibly after this call) re-sends the signal to the
 * process when it finds itself the last listener, which would kill the server before it closed.
 */
export function untilStopSignal(close: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    let closing = false;
    const stop = (): void => {
      if (closing) return;
      closing = true;
      void close().then(done, done);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
