// One-shot CLI processes, whole process each: catalog vs UCAgent's Python scan, call ListSkill vs `node -e 0`, call RunSkillScript vs python.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { tempRoot } from "../support/workspace.js";
import { BUILT_MAIN, ensureBuilt } from "./built.js";
import { percentile, printTable, type Row, Samples } from "./report.js";
import { PLAIN_ENV, spawnPlain } from "./spawn.js";
import { BENCH_SKILL, type BenchWorkspace, makeBenchWorkspace } from "./workspace.js";

const ROUNDS = Number(process.env.SKILLGATE_BENCH_ROUNDS ?? 15);
/** SKILLGATE_BENCH_ROWS=run (or catalog,list,list20k,run, comma-separated): only those rows, for iterating on one. */
const ROWS = new Set((process.env.SKILLGATE_BENCH_ROWS ?? "catalog,list,list20k,run").split(","));
const want = (row: string): boolean => ROWS.has(row);
/**
 * SKILLGATE_BENCH_BEFORE=<other build>/dist/runtime/cli/main.js: that build's `call ListSkill`, `call RunSkillScript`
 * and cold `catalog` too, same rounds (copy dist/ with node_modules beside it, e.g. a symlink, so the copy resolves
 * its packages).
 */
const BEFORE = process.env.SKILLGATE_BENCH_BEFORE;
const temp = tempRoot("skillgate-bench-cli-");
const dir = temp.dir;
const catalogRoot = join(dir, "catalog");
const ucagentScan = join(dir, "ucagent_scan.py");
const samples = new Samples();
const ratios = new Samples();
let small: BenchWorkspace;
let large: BenchWorkspace;
/** The other build's own workspace: its setfacl calls would move the ctimes our grant cache keys on. */
let beforeWs: BenchWorkspace | undefined;
let python = "";

/** What UCAgent's `_scan_skills` does per skill: rglob, the frontmatter regex, yaml.safe_load, the scripts/ listing. */
const UCAGENT_SCAN = `import re, sys
from pathlib import Path
import yaml

FRONTMATTER = re.compile(r"^---\\s*\\n(.*?)\\n---\\s*\\n", re.DOTALL)

def scan_skills(root):
    skills = []
    for skill_file in sorted(Path(root).rglob("SKILL.md")):
        text = skill_file.read_text(encoding="utf-8")
        match = FRONTMATTER.match(text)
        if not match:
            continue
        meta = yaml.safe_load(match.group(1))
        if not isinstance(meta, dict) or not meta.get("name") or not meta.get("description"):
            continue
        scripts_dir = skill_file.parent / "scripts"
        scripts = sorted(p.name for p in scripts_dir.iterdir() if p.is_file()) if scripts_dir.is_dir() else []
        skills.append({"name": meta["name"], "description": meta["description"], "scripts": scripts})
    return skills

print(len(scan_skills(sys.argv[1])))
`;

/** The catalog bench's tree: 2,000 skills in 3 levels, 2 scripts each, with a nested metadata block. */
function writeCatalogTree(): void {
  const body = "Apply the method step by step, record findings, then run the checker.\n".repeat(12);
  for (let group = 0; group < 10; group++)
    for (let area = 0; area < 10; area++)
      for (let index = 0; index < 20; index++) {
        const name = `skill-${group}-${area}-${index}`;
        const skill = join(catalogRoot, `group-${group}`, `area-${area}`, name);
        mkdirSync(join(skill, "scripts"), { recursive: true });
        writeFileSync(
          join(skill, "SKILL.md"),
          `---\nname: ${name}\ndescription: Finds kind ${index} issues in the design under test. Use when the stage asks for it.\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.0"\n---\n# ${name}\n\n${body}`,
        );
        writeFileSync(join(skill, "scripts", "check.py"), "print('ok')\n");
        writeFileSync(join(skill, "scripts", "report.sh"), "echo ok\n");
      }
}

/** The environment of every process here (the CLI included): no NODE_EXTRA_CA_CERTS from vitest's env. */
const envFor = (bw: BenchWorkspace): NodeJS.ProcessEnv => ({
  ...PLAIN_ENV,
  SKILLGATE_HOME: bw.home,
  NO_COLOR: "1",
});
const skillgate = (bw: BenchWorkspace, ...args: string[]) =>
  spawnPlain(
    [process.execPath, BUILT_MAIN, ...args, "--workspace", bw.ws, "--config", bw.configFile],
    bw.dir,
    envFor(bw),
  );
const skillgateBefore = (bw: BenchWorkspace, ...args: string[]) =>
  spawnPlain(
    [process.execPath, BEFORE as string, ...args, "--workspace", bw.ws, "--config", bw.configFile],
    bw.dir,
    envFor(bw),
  );
const RUN_PY = JSON.stringify({ commands: [[BENCH_SKILL, "helper.py", "a bb ccc"]] });

async function timed(key: string, run: () => Promise<string>): Promise<number> {
  const start = performance.now();
  await run();
  const elapsed = performance.now() - start;
  samples.add(key, elapsed);
  return elapsed;
}

beforeAll(async () => {
  ensureBuilt();
  if (want("catalog")) writeCatalogTree();
  writeFileSync(ucagentScan, UCAGENT_SCAN);
  // The real interpreter (a pyenv shim is a shell script that costs more than the scan's start-up).
  python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  try {
    if (want("catalog")) execFileSync(python, ["-c", "import yaml"]);
  } catch {
    throw new Error(`PyYAML is missing for ${python}: python3 -m pip install pyyaml (.ci/run installs it)`);
  }
  small = makeBenchWorkspace();
  await (await small.open()).catalog();
  if (BEFORE !== undefined && (want("run") || want("list"))) {
    beforeWs = makeBenchWorkspace();
    await (await beforeWs.open()).catalog();
    for (let i = 0; i < 2; i++) {
      if (want("list")) await skillgateBefore(beforeWs, "call", "ListSkill");
      if (want("run")) await skillgateBefore(beforeWs, "call", "RunSkillScript", RUN_PY);
    }
  }
  if (want("list20k")) {
    large = makeBenchWorkspace({ extraSkills: 20_000 });
    await (await large.open()).catalog();
  }
  // Warm: page cache, the per-verb V8 code caches (written by the first run of each verb).
  for (let i = 0; i < 2; i++) {
    if (want("catalog"))
      await spawnPlain([process.execPath, BUILT_MAIN, "catalog", catalogRoot, "--json"], dir, envFor(small));
    if (want("catalog") && BEFORE !== undefined)
      await spawnPlain([process.execPath, BEFORE, "catalog", catalogRoot, "--json"], dir, envFor(small));
    if (want("list")) await skillgate(small, "call", "ListSkill");
    if (want("run")) await skillgate(small, "call", "RunSkillScript", RUN_PY);
    if (want("list20k")) await skillgate(large, "call", "ListSkill");
  }
}, 600_000);

afterAll(() => {
  report();
  small?.cleanup();
  beforeWs?.cleanup();
  large?.cleanup();
  temp.cleanup();
}, 600_000);

function report(): void {
  if (samples.get("node0").length === 0) return; // set-up failed: vitest reports why
  const spread = (key: string) =>
    ratios.get(key).length === 0
      ? "not run"
      : `${percentile(ratios.get(key), 10).toFixed(2)}x-${percentile(ratios.get(key), 90).toFixed(2)}x`;
  const m = (key: string) => samples.median(key);
  const rows: Row[] = [
    {
      name: "cold `skillgate catalog ROOT --json`, 2,000 skills",
      ours: m("catalog.ours"),
      baseline: m("catalog.python"),
      baselineName: `\`${python} ucagent_scan.py ROOT\`: UCAgent's _scan_skills (rglob, regex, yaml.safe_load, scripts/)`,
      ratio: ratios.median("catalog"),
      target: "<= 0.143x (>= 7x faster)",
      met: ratios.median("catalog") <= 1 / 7,
    },
    {
      name: "`skillgate call ListSkill` (1-skill workspace)",
      ours: m("list.ours"),
      baseline: m("node0"),
      baselineName: "`node -e 0` (same environment)",
      ratio: ratios.median("list"),
      target: "<= 3x",
      met: ratios.median("list") <= 3,
    },
    {
      name: "`skillgate call ListSkill`, 20,000-skill workspace",
      ours: m("list20k.ours"),
      baseline: m("node0"),
      baselineName: "`node -e 0`; the target is absolute",
      ratio: ratios.median("list20k"),
      target: "< 1000 ms",
      met: m("list20k.ours") < 1000,
    },
    {
      name: "`skillgate call RunSkillScript` helper.py (sandbox level 2)",
      ours: m("run.ours"),
      baseline: m("run.python"),
      baselineName: `\`${python} helper.py a bb ccc\` spawned directly (the interpreter RunSkillScript runs)`,
      ratio: ratios.median("run"),
      target: "<= 4x",
      met: ratios.median("run") <= 4,
    },
  ];
  const measured = rows.filter((_, index) => want(["catalog", "list", "list20k", "run"][index] as string));
  printTable("One-shot CLI processes (whole process each, built dist/)", measured, {
    notes: [
      `${ROUNDS} rounds, every variant once per round (interleaved); the ratio is the median of per-round ratios.`,
      `Per-round ratio spread (p10-p90): catalog ${spread("catalog")}, ListSkill ${spread("list")}, ListSkill 20k ${spread("list20k")}, RunSkillScript ${spread("run")}.`,
      `Speed-up of catalog over the Python scan: ${(1 / ratios.median("catalog")).toFixed(1)}x.`,
      ...(BEFORE === undefined || !want("catalog")
        ? []
        : [
            `catalog of the build ${BEFORE}: median ${samples.median("catalog.before").toFixed(1)} ms, ${ratios.median("catalog.before").toFixed(3)}x the Python scan (${spread("catalog.before")}); this build / that one per round: ${ratios.median("catalog.vs-before").toFixed(3)}x (${spread("catalog.vs-before")}).`,
          ]),
      ...(BEFORE === undefined || !want("list")
        ? []
        : [
            `ListSkill of the build ${BEFORE}: median ${samples.median("list.before").toFixed(1)} ms, ${ratios.median("list.before").toFixed(2)}x node -e 0 (${spread("list.before")}); this build / that one per round: ${ratios.median("list.vs-before").toFixed(2)}x (${spread("list.vs-before")}).`,
          ]),
      ...(BEFORE === undefined || !want("run")
        ? []
        : [
            `RunSkillScript of the build ${BEFORE}: median ${samples.median("run.before").toFixed(1)} ms, ${ratios.median("run.before").toFixed(2)}x python (${spread("run.before")}); this build / that one per round: ${ratios.median("run.vs-before").toFixed(2)}x (${spread("run.vs-before")}).`,
          ]),
    ],
  });
}

describe("one-shot CLI processes", () => {
  bench(
    "one interleaved round",
    async () => {
      const env = envFor(small);
      const node0 = await timed("node0", () => spawnPlain([process.execPath, "-e", "0"], dir, env));
      if (want("catalog")) {
        const scan = await timed("catalog.python", () =>
          spawnPlain([python, ucagentScan, catalogRoot], dir, env),
        );
        const ours = await timed("catalog.ours", () =>
          spawnPlain([process.execPath, BUILT_MAIN, "catalog", catalogRoot, "--json"], dir, env),
        );
        ratios.add("catalog", ours / scan);
        if (BEFORE !== undefined) {
          const before = await timed("catalog.before", () =>
            spawnPlain([process.execPath, BEFORE, "catalog", catalogRoot, "--json"], dir, env),
          );
          ratios.add("catalog.before", before / scan);
          ratios.add("catalog.vs-before", ours / before);
        }
      }
      if (want("list")) {
        const ours = await timed("list.ours", () => skillgate(small, "call", "ListSkill"));
        ratios.add("list", ours / node0);
        if (beforeWs !== undefined) {
          const other = beforeWs;
          const before = await timed("list.before", () => skillgateBefore(other, "call", "ListSkill"));
          ratios.add("list.before", before / node0);
          ratios.add("list.vs-before", ours / before);
        }
      }
      if (want("list20k"))
        ratios.add(
          "list20k",
          (await timed("list20k.ours", () => skillgate(large, "call", "ListSkill"))) / node0,
        );
      if (want("run")) {
        const py = await timed("run.python", () =>
          spawnPlain([python, small.scriptPath("helper.py"), "a", "bb", "ccc"], small.ws, env),
        );
        ratios.add(
          "run",
          (await timed("run.ours", () => skillgate(small, "call", "RunSkillScript", RUN_PY))) / py,
        );
        if (beforeWs !== undefined) {
          const other = beforeWs;
          const before = await timed("run.before", () =>
            skillgateBefore(other, "call", "RunSkillScript", RUN_PY),
          );
          ratios.add("run.before", before / py);
          ratios.add("run.vs-before", (samples.get("run.ours").at(-1) as number) / before);
        }
      }
    },
    { iterations: ROUNDS, warmupIterations: 0, time: 0 },
  );
});
