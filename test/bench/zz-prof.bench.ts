import { bench } from "vitest";
import { callTool } from "../../runtime/tools/index.js";
import { withWorkspaceLock } from "../../runtime/workspace/index.js";
import { Samples } from "./report.js";
import { makeBenchWorkspace } from "./workspace.js";
const bw = makeBenchWorkspace({ extraSkills: 50 });
const s = new Samples();
bench("prof", async () => {
  const session = await bw.open();
  const engine = session.engine as any;
  for (let i = 0; i < 300; i++) {
    await s.timeAsync("callTool ListSkill", () => callTool(session, "ListSkill", {}));
    await s.timeAsync("callTool Status", () => callTool(session, "Status", {}));
    await s.timeAsync("engine.current", () => session.engine.current());
    await s.timeAsync("ledger.read", () => engine.ledger.read());
    await s.timeAsync("lock only", () => withWorkspaceLock(session.paths, async () => 1));
    await s.timeAsync("recordList (no-op)", () => session.engine.recordList(["bench/helpers"]));
    s.time("catalog", () => session.catalog());
  }
  for (const [k, v] of s.series) console.log(k.padEnd(22), s.median(k).toFixed(3));
  bw.cleanup();
}, { iterations: 1, time: 0, warmupIterations: 0 });
