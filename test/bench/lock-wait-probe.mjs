// Preloaded into the concurrency bench's `skillgate serve --http` (node --import): collects every workspace-lock wait and run-queue slot time, writes them on exit.
// `acquisitions`: each take of the lock (a group commit takes it once for many transactions); `transactions`: each
// ledger transaction's wait from its call until its commit held the lock (what a caller waits), with its commit's size.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.SKILLGATE_BENCH_LOCK_WAITS;
if (!file) throw new Error("lock-wait-probe: set SKILLGATE_BENCH_LOCK_WAITS to the output file");
const acquisitions = [];
const transactions = [];
const batches = [];
const slots = [];
const queued = [];
subscribe("skillgate:workspace-lock-wait", (message) => acquisitions.push(message.waitedMs));
subscribe("skillgate:ledger-lock-wait", (message) => {
  transactions.push(message.waitedMs);
  batches.push(message.batch);
});
subscribe("skillgate:run-queue", (message) => {
  slots.push(message.heldMs);
  queued.push(message.waitedMs);
});
process.on("exit", () =>
  writeFileSync(file, JSON.stringify({ acquisitions, transactions, batches, slots, queued })),
);
