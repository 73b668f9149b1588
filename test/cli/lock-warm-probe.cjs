// Preload for test/cli/bundle.test.ts: for each child process the CLI spawns, appends its argv and whether graceful-fs (proper-lockfile's fs layer) was loaded when it exited to $LOCK_WARM_PROBE.
const fs = require("node:fs");

require("node:diagnostics_channel").subscribe("child_process", ({ process: child }) => {
  child.once("exit", () => {
    const lockCode = Boolean(fs[Symbol.for("graceful-fs.queue")]);
    fs.appendFileSync(
      process.env.LOCK_WARM_PROBE,
      `${JSON.stringify({ argv: child.spawnargs, lockCode })}\n`,
    );
  });
});
