// Preloaded into the concurrency bench's `skillgate serve --http` (node --import): collects every workspace-lock wait and hold, ledger-transaction wait and run-queue slot, writes them on exit.
// Channels (all published by the runtime only while someone subscribes):
// - `skillgate:workspace-lock-wait` (runtime/workspace/lock.ts): each take of the file lock, its wait from the ask
//   (in-process queue + the lock folder) -> `acquisitions`; a group commit takes it once for many transactions.
// - `skillgate:workspace-lock-held` (same file): each release, how long that take held the lock -> `holds`.
// - `skillgate:ledger-lock-wait` (runtime/evidence/group-commit.ts): each ledger transaction's wait from its call until
//   its commit held the lock (what a caller waits; the bench's lock-wait p99) -> `transactions`, with its commit's
//   size -> `batches`.
// - `skillgate:run-queue` (runtime/exec/queue.ts): each finished call's slot hold -> `slots` and queue wait -> `queued`.
// A channel the runtime does not publish would leave its list empty and the bench print nothing for it: the probe
// fails the server at exit instead when a lock was waited for by transactions but never seen taken.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.SKILLGATE_BENCH_LOCK_WAITS;
if (!file) throw new Error("lock-wait-probe: set SKILLGATE_BENCH_LOCK_WAITS to the output file");
const acquisitions = [];
const holds = [];
const transactions = [];
const batches = [];
const slots = [];
const queued = [];
subscribe("skillgate:workspace-lock-wait", (message) => acquisitions.push(message.waitedMs));
subscribe("skillgate:workspace-lock-held", (message) => holds.push(message.heldMs));
subscribe("skillgate:ledger-lock-wait", (message) => {
  transactions.push(message.waitedMs);
  batches.push(message.batch);
});
subscribe("skillgate:run-queue", (message) => {
  slots.push(message.heldMs);
  queued.push(message.waitedMs);
});
process.on("exit", () => {
  writeFileSync(file, JSON.stringify({ acquisitions, holds, transactions, batches, slots, queued }));
  if (transactions.length > 0 && (acquisitions.length === 0 || holds.length === 0)) {
    process.stderr.write(
      `lock-wait-probe: ${transactions.length} ledger transactions but ${acquisitions.length} lock acquisitions and ${holds.length} releases seen: the lock channels were renamed; update test/bench/lock-wait-probe.mjs\n`,
    );
    process.exitCode = 70;
  }
});
