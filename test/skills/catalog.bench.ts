// Catalog benchmark: cold scan vs the raw IO floor, warm snapshot, and refresh after one SKILL.md change (2,000 skills).
import fs from "node:fs";
import path from "node:path";
import { afterAll, bench, describe } from "vitest";
import { type Catalog, createCatalog, scanSkillRoot } from "../../runtime/skills/index.js";
import { median, printTable, type Row } from "../bench/report.js";
import { tempRoot } from "../support/workspace.js";

const GROUPS = 10;
const SUBGROUPS = 10;
const SKILLS_PER_SUBGROUP = 20; // 10 × 10 × 20 = 2,000 skills, 3 levels deep, 2 scripts each
const temp = tempRoot("skillgate-bench-");
const root = temp.dir;
const body = `${"Apply the method step by step, record findings, then run the checker.\n".repeat(12)}`;

function skillText(name: string, note: string): string {
  return `---\nname: ${name}\ndescription: Finds ${note} issues in the design under test. Use when the stage asks for it.\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.0"\n---\n# ${name}\n\n${body}`;
}

for (let group = 0; group < GROUPS; group++) {
  for (let subgroup = 0; subgroup < SUBGROUPS; subgroup++) {
    for (let index = 0; index < SKILLS_PER_SUBGROUP; index++) {
      const name = `skill-${group}-${subgroup}-${index}`;
      const dir = path.join(root, `group-${group}`, `area-${subgroup}`, name);
      fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), skillText(name, `kind ${index}`));
      fs.writeFileSync(path.join(dir, "scripts", "check.py"), "print('ok')\n");
      fs.writeFileSync(path.join(dir, "scripts", "report.sh"), "echo ok\n");
    }
  }
}
const changedFile = path.join(root, "group-4", "area-7", "skill-4-7-3", "SKILL.md");

/** The floor: walk every folder and read every SKILL.md, no parsing, no script listing. */
function rawFloor(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = `${dir}/${entry.name}`;
    if (entry.isDirectory()) bytes += rawFloor(child);
    else if (entry.name === "SKILL.md") bytes += fs.readFileSync(child).length;
  }
  return bytes;
}

const samples: Record<string, number[]> = {
  floor: [],
  cold: [],
  pairFloor: [],
  pairCold: [],
  pairRatio: [],
  warm: [],
  change: [],
  rescan: [],
};
function timed<T>(key: string, run: () => T): T {
  const start = performance.now();
  const result = run();
  samples[key]?.push(performance.now() - start);
  return result;
}

let watchCatalog: Catalog | null = null;
let rescanCatalog: Catalog | null = null;
let edits = 0;

const options = { time: 3000, iterations: 30, warmupIterations: 5 };

describe("skill catalog (2,000 skills)", () => {
  bench(
    "raw floor: readdir + read every SKILL.md",
    () => {
      timed("floor", () => rawFloor(root));
    },
    options,
  );

  bench(
    "cold scan: scanSkillRoot",
    () => {
      const snapshot = timed("cold", () => scanSkillRoot(root));
      if (snapshot.skills.length !== 2000)
        throw new Error(`expected 2000 skills, got ${snapshot.skills.length}`);
    },
    options,
  );

  // The machine is shared: load drifts between benches, so the ratio comes from floor and scan measured
  // back to back in the same iteration (order alternating, so carried-over garbage is paid by each side
  // half of the time), as the median of per-iteration ratios.
  let pairs = 0;
  bench(
    "paired floor + cold scan (for the ratio)",
    () => {
      pairs += 1;
      const measure = (run: () => unknown) => {
        const start = performance.now();
        run();
        return performance.now() - start;
      };
      let floorMs: number;
      let coldMs: number;
      if (pairs % 2 === 0) {
        floorMs = measure(() => rawFloor(root));
        coldMs = measure(() => scanSkillRoot(root));
      } else {
        coldMs = measure(() => scanSkillRoot(root));
        floorMs = measure(() => rawFloor(root));
      }
      samples.pairFloor?.push(floorMs);
      samples.pairCold?.push(coldMs);
      samples.pairRatio?.push(coldMs / floorMs);
    },
    { ...options, iterations: 40 },
  );

  bench(
    "warm snapshot, unchanged tree (watch)",
    () => {
      watchCatalog ??= createCatalog(root);
      timed("warm", () => watchCatalog?.snapshot());
    },
    { ...options, iterations: 500 },
  );

  bench(
    "snapshot after one SKILL.md changed (watch)",
    () => {
      watchCatalog ??= createCatalog(root);
      edits += 1;
      fs.writeFileSync(changedFile, skillText("skill-4-7-3", `edit ${edits}`));
      const snapshot = timed("change", () => watchCatalog?.snapshot());
      if (!snapshot?.skills.some((skill) => skill.description.includes(`edit ${edits} `)))
        throw new Error("change not seen");
    },
    { ...options, iterations: 200 },
  );

  bench(
    "snapshot with the rescan fallback (no watcher)",
    () => {
      rescanCatalog ??= createCatalog(root, { strategy: "rescan" });
      timed("rescan", () => rescanCatalog?.snapshot());
    },
    options,
  );
});

// Top level: vitest bench runs a describe-level afterAll without showing its output.
afterAll(() => {
  watchCatalog?.close();
  rescanCatalog?.close();
  temp.cleanup();
  if (samples.pairRatio?.length === 0) return; // set-up failed: vitest reports why
  const m = (key: string) => median(samples[key] ?? []);
  const cold = m("pairCold");
  const ratio = m("pairRatio");
  const rows: Row[] = [
    {
      name: "cold scan: scanSkillRoot",
      ours: cold,
      baseline: m("pairFloor"),
      baselineName:
        "raw floor: readdir + read every SKILL.md (no parsing), measured back to back with the scan",
      ratio,
      target: "<= 2x",
      met: ratio <= 2,
    },
    {
      name: "warm snapshot, unchanged tree (watch)",
      ours: m("warm"),
      baseline: null,
      target: "< 2 ms",
      met: m("warm") < 2,
    },
    {
      name: "snapshot after one SKILL.md changed",
      ours: m("change"),
      baseline: cold,
      baselineName: "cold scan (paired median above)",
      target: "< 0.10x (10% of cold)",
      met: m("change") < 0.1 * cold,
    },
    {
      name: "cold scan, separate bench",
      ours: m("cold"),
      baseline: m("floor"),
      baselineName: "raw floor, separate bench (drifts with machine load; the paired ratio is the figure)",
      target: "",
      met: null,
    },
    {
      name: "snapshot, rescan fallback (no watcher)",
      ours: m("rescan"),
      baseline: m("pairFloor"),
      target: "",
      met: null,
    },
  ];
  printTable("skill catalog, 2,000 skills (3 levels deep, 2 scripts each)", rows, {
    notes: [
      "ratio of the cold scan = median of per-iteration scan/floor ratios (floor and scan back to back, order alternating).",
      "ListSkill end to end (ledger read included) on a 2,000-skill workspace: see the ListSkill table.",
    ],
  });
});
