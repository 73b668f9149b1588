// ListSkill end to end in process (callTool on a real 2,000-skill workspace): warm, and right after one SKILL.md changed.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import { callTool } from "../../runtime/tools/index.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { printTable, Samples } from "./report.js";
import { type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

const SKILLS = 2_000;
const bw: BenchWorkspace = makeBenchWorkspace({ extraSkills: SKILLS });
const samples = new Samples();
let session: OpenedSession;
let edits = 0;

async function listSkill(): Promise<void> {
  const result = await callTool(session, "ListSkill", {});
  if (result.isError) throw new Error(`ListSkill failed: ${result.text}`);
}

beforeAll(async () => {
  session = await bw.open();
  for (let i = 0; i < 20; i++) await listSkill();
}, 300_000);

afterAll(() => {
  bw.cleanup();
  if (samples.get("warm").length === 0) return; // set-up failed: vitest reports why
  const cold = samples.median("cold");
  printTable(`ListSkill through callTool, ${SKILLS.toLocaleString("en")}-skill workspace (in process)`, [
    {
      name: "warm ListSkill, unchanged catalog",
      ours: samples.median("warm"),
      baseline: samples.median("snapshot"),
      baselineName: "the catalog snapshot alone (session.catalog())",
      target: "< 2 ms",
      met: samples.median("warm") < 2,
    },
    {
      name: "ListSkill right after one SKILL.md changed",
      ours: samples.median("changed"),
      baseline: cold,
      baselineName: "cold scan of the workspace skill folder (scanSkillRoot), same run",
      target: "< 0.10x (10% of cold)",
      met: samples.median("changed") < 0.1 * cold,
    },
  ]);
});

describe("ListSkill in process", () => {
  bench(
    "warm ListSkill + snapshot alone",
    async () => {
      samples.time("snapshot", () => session.catalog());
      await samples.timeAsync("warm", listSkill);
    },
    { iterations: 300, warmupIterations: 0, time: 0 },
  );
  bench(
    "ListSkill after one SKILL.md changed, and a cold scan",
    async () => {
      const file = join(session.paths.skillsDir, "extra", "skill-7", "SKILL.md");
      edits += 1;
      chmodSync(file, 0o644);
      writeFileSync(file, `---\nname: skill-7\ndescription: Edited ${edits} times.\n---\n\n# skill-7\n`);
      await samples.timeAsync("changed", listSkill);
      const snapshot = session.catalog();
      if (!snapshot?.skills.some((skill) => skill.description === `Edited ${edits} times.`))
        throw new Error("the change was not seen");
      if (edits % 4 === 0) samples.time("cold", () => scanSkillRoot(session.paths.skillsDir));
    },
    { iterations: 80, warmupIterations: 0, time: 0 },
  );
});
