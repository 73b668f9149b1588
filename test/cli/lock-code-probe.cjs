// Preload for test/cli/bundle.test.ts: at exit, appends whether graceful-fs (proper-lockfile's fs layer) was loaded to $LOCK_CODE_PROBE.
const fs = require("node:fs");

process.on("exit", () => {
  fs.appendFileSync(process.env.LOCK_CODE_PROBE, `${Boolean(fs[Symbol.for("graceful-fs.queue")])}\n`);
});
