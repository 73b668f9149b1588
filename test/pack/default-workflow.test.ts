// The default workflow and its example target: schema, skills and guides exist, guide examples pass the real checkers, planted defects are real.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConfigSchema, type StageConfig } from "../../runtime/config/schema.js";
import { checkerArgProblems, runChecker } from "../../runtime/stage/index.js";
import { cleanupTempDirs, freshDir, REPO, run, SKILLS } from "./support.js";

const raw = parse(readFileSync(join(REPO, "runtime", "config", "default.yaml"), "utf8"));
const config = ConfigSchema.parse(raw);
const DUT = join(REPO, "examples", "buggy-inventory");
const [analysis, reproduction, summary] = config.stage as [StageConfig, StageConfig, StageConfig];

interface PlantedDefect {
  id: string;
  file: string;
  line: number;
  lines: [number, number];
  code: string;
  severity: string;
}
const planted = JSON.parse(
  readFileSync(join(REPO, "test", "fixtures", "pack", "planted_defects.json"), "utf8"),
) as {
  target: string;
  defects: PlantedDefect[];
};

afterAll(cleanupTempDirs);

/** Writes `text` as the stage's output and runs its checkers like Check (in order, stop at the first failure). */
async function check(stage: StageConfig, fileName: string, text: string) {
  const workspace = freshDir("wf-ws");
  const out = join(workspace, "out");
  mkdirSync(out);
  // Later stages read the analysis too (one reproduction per recorded bug): the guide's example records BUG-001.
  writeFileSync(join(out, "static_bug_analysis.md"), guideExample("guide_doc/static_bug_analysis.md"));
  writeFileSync(join(out, fileName), text);
  for (const checker of stage.checker) {
    const outcome = await runChecker(checker, { workspace, runtime: { OUT: out, DUT, workspace } });
    if (!outcome.ok) return outcome;
  }
  return { ok: true, message: "all passed" };
}

/** The first ```markdown block of a guide. */
function guideExample(guide: string): string {
  const text = readFileSync(join(REPO, guide), "utf8");
  const match = /```markdown\n([\s\S]*?)```/.exec(text);
  if (!match) throw new Error(`${guide} has no markdown example`);
  return match[1]!;
}

describe("runtime/config/default.yaml", () => {
  it("uses only the top-level keys the schema knows and workspace-relative DUT/OUT", () => {
    expect(Object.keys(raw).sort()).toEqual(["DUT", "OUT", "exec", "skill", "stage"]);
    expect([config.DUT, config.OUT]).toEqual(["dut", "out"]);
    // Only the operator grants capabilities: the bundled runners get the network they need for installs.
    expect(config.exec.grants).toEqual({
      "runners/python-runner": { network: true, env: [] },
      "runners/js-runner": { network: true, env: [] },
    });
    expect(config.skill.general_skill_list).toEqual(["authoring/skill-creator"]);
  });

  it("has a forced stage skill, an optional one and a stage without skills", () => {
    expect(config.stage.map((s) => [s.name, s.skill_list, s.force_use_skill])).toEqual([
      ["static_bug_analysis", ["review/static-bug-analysis"], true],
      ["bug_reproduction", ["runners/python-runner", "runners/js-runner"], false],
      ["summary", [], true],
    ]);
  });

  it("names skills that exist in the pack and guides that exist", () => {
    const ids = [...config.stage.flatMap((s) => s.skill_list), ...config.skill.general_skill_list];
    for (const id of ids) expect(existsSync(join(SKILLS, id, "SKILL.md")), id).toBe(true);
    for (const stage of config.stage) {
      expect(stage.guide_doc, stage.name).toBe(`guide_doc/${stage.name}.md`);
      expect(existsSync(join(REPO, stage.guide_doc!)), stage.guide_doc).toBe(true);
      expect(stage.output_files).toHaveLength(1);
      expect(stage.task.length).toBeGreaterThan(2);
    }
  });

  it("gives every checker args its kind accepts", () => {
    for (const stage of config.stage) {
      for (const checker of stage.checker)
        expect(checkerArgProblems(checker), `${stage.name} ${checker.kind}`).toEqual([]);
    }
  });
});

describe("each guide's example passes its stage's real checkers", () => {
  it.each([
    [analysis, "guide_doc/static_bug_analysis.md", "static_bug_analysis.md"],
    [reproduction, "guide_doc/bug_reproduction.md", "reproduction.md"],
    [summary, "guide_doc/summary.md", "summary.md"],
  ] as const)("$1", async (stage, guide, fileName) => {
    expect(await check(stage, fileName, guideExample(guide))).toEqual({ ok: true, message: "all passed" });
  });
});

describe("the checkers reject malformed output", () => {
  const entry = (fields: Record<string, string>) =>
    `# Static Bug Analysis\n\n## BUG-001: t\n${Object.entries(fields)
      .map(([k, v]) => `- **${k}**: ${v}\n`)
      .join("")}`;
  const good = { File: "inventory.py", Line: "90", Severity: "high", Description: "d" };

  it.each([
    [
      "no title line",
      "## BUG-001: t\n- **File**: a\n- **Line**: 1\n- **Severity**: low\n- **Description**: d\n",
      "markdown_headings",
    ],
    ["no entries", "# Static Bug Analysis\n\nnothing found\n", "has 0 entries"],
    ["a two-digit id", entry(good).replace("BUG-001", "BUG-01"), "has 0 entries"],
    ["a missing field", entry({ ...good, Severity: "" }), "missing '- **Severity**: <value>'"],
    ["a Line that is not a number", entry({ ...good, Line: "around 90" }), "allowed at most 0"],
    ["an unknown severity", entry({ ...good, Severity: "urgent" }), "allowed at most 0"],
  ])("stage 1: %s", async (_name, text, expected) => {
    const outcome = await check(analysis, "static_bug_analysis.md", text);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain(expected);
  });

  const repro = (heading: string, bug: string, verdict: string) =>
    `# Bug Reproduction\n\n## ${heading}\n- **Bug**: ${bug}\n- **Command**: uv run x.py\n- **Observed**: boom\n- **Verdict**: ${verdict}\n`;
  it.each([
    ["a heading without a BUG id", repro("REPRO-001: the total", "BUG-001", "reproduced"), "has 0 entries"],
    [
      "a Bug field without an id",
      repro("REPRO-001: BUG-001", "the first one", "reproduced"),
      "'the first one' (line 3) is not recorded in out/static_bug_analysis.md",
    ],
    ["an unknown verdict", repro("REPRO-001: BUG-001", "BUG-001", "maybe"), "allowed at most 0"],
  ])("stage 2: %s", async (_name, text, expected) => {
    const outcome = await check(reproduction, "reproduction.md", text);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain(expected);
  });

  it("stage 3: a summary missing a heading or any BUG id", async () => {
    const missing = await check(
      summary,
      "summary.md",
      "# Summary\n\n## Findings\n\n## Reproduction results\n",
    );
    expect(missing.message).toContain("## Recommended fixes");
    const noIds = await check(
      summary,
      "summary.md",
      "# Summary\n## Findings\n## Reproduction results\n## Recommended fixes\n",
    );
    expect(noIds.ok).toBe(false);
    expect(noIds.message).toContain("need at least 1");
  });
});

describe("examples/buggy-inventory", () => {
  it("runs and prints its report", () => {
    expect(run("python3", ["inventory.py", "stock.csv"], { cwd: DUT })).toEqual({
      status: 0,
      stdout: [
        "A100     Teapot                   4 x    19.99",
        "B200     Mug                     12 x     4.50",
        "C300     Saucer                   1 x     2.75",
        "D400     Kettle                   2 x    34.99",
        "total value: 136.71",
        "low stock: C300, D400",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("holds each planted defect at the documented line", () => {
    expect(planted.target).toBe("examples/buggy-inventory");
    expect(planted.defects).toHaveLength(5);
    for (const defect of planted.defects) {
      const lines = readFileSync(join(REPO, planted.target, defect.file), "utf8").split("\n");
      expect(lines[defect.line - 1]?.trim(), defect.id).toBe(defect.code);
      expect(defect.lines[0] <= defect.line && defect.line <= defect.lines[1], defect.id).toBe(true);
    }
  });

  it("misbehaves exactly as planted_defects.json says", () => {
    const scratch = freshDir("wf-probe");
    const probe = `
import gc, os, sys, warnings
sys.path.insert(0, ${JSON.stringify(DUT)})
import inventory as inv
a = inv.Item("A", "a", 1); b = inv.Item("B", "b", 1); a.add_tag("fragile"); print("tags", b.tags)
try:
    inv.Inventory().price_of("NOPE")
except Exception as e:
    print("price_of", type(e).__name__)
stock = inv.load_csv(${JSON.stringify(join(DUT, "stock.csv"))})
try:
    stock.remove_stock("C300", 1)
except Exception as e:
    print("remove_stock", type(e).__name__)
print("total", stock.total_value_cents(), "expected", sum(i.price_cents * i.quantity for i in stock.items()))
bad = os.path.join(${JSON.stringify(scratch)}, "bad.csv")
with open(bad, "w") as f:
    f.write("a,b\\n1,2\\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        inv.load_csv(bad)
    except inv.InventoryError:
        pass
    gc.collect()
print("leak", any(issubclass(w.category, ResourceWarning) for w in caught))
`;
    expect(run("python3", ["-c", probe])).toEqual({
      status: 0,
      stdout:
        "tags ['fragile']\nprice_of AttributeError\nremove_stock InsufficientStock\ntotal 13671 expected 20669\nleak True\n",
      stderr: "",
    });
  });

  it("keeps its README free of the planted defects' descriptions", () => {
    const readme = readFileSync(join(DUT, "README.md"), "utf8").toLowerCase();
    for (const word of ["off-by-one", "leak", "mutable default", "attributeerror", "range(len", ">="])
      expect(readme).not.toContain(word);
  });
});
