// Preloaded into the concurrency bench's `skillgate serve --http` (node --import): collects every workspace-lock wait, writes them on exit.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.SKILLGATE_BENCH_LOCK_WAITS;
if (!file) throw new Error("lock-wait-probe: set SKILLGATE_BENCH_LOCK_WAITS to the output file");
const waits = [];
subscribe("skillgate:workspace-lock-wait", (message) => waits.push(message.waitedMs));
process.on("exit", () => writeFileSync(file, JSON.stringify(waits)));
