// Preload for test/cli/commands/call.test.ts: at exit, appends the process's ledger commits and workspace lock acquisitions to $LEDGER_COMMIT_PROBE.
const { appendFileSync } = require("node:fs");
const { subscribe } = require("node:diagnostics_channel");

const seen = { commits: 0, locks: 0 };
// The channels the evidence ledger (a commit's jobs, under the lock) and the workspace lock publish on.
subscribe("skillgate:ledger-lock-wait", () => {
  seen.commits++;
});
subscribe("skillgate:workspace-lock-wait", () => {
  seen.locks++;
});
process.on("exit", () => {
  appendFileSync(process.env.LEDGER_COMMIT_PROBE, `${JSON.stringify(seen)}\n`);
});
