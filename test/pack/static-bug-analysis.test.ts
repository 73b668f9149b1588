// review/static-bug-analysis: record/list helpers through tsx (node_modules/.bin/tsx) as real processes, checked by the real stage-1 checkers; its hook.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ConfigSchema, type StageConfig } from "../../runtime/config/schema.js";
import type { SkillRecord } from "../../runtime/skills/types.js";
import { applySkillHooks, runChecker, StageInstance } from "../../runtime/stage/index.js";
import { GUIDANCE_LINE, setupStage } from "../../skills/review/static-bug-analysis/hooks.js";
import { cleanupTempDirs, freshDir, REPO, run, SKILLS, TSX } from "./support.js";

const SKILL_DIR = join(SKILLS, "review", "static-bug-analysis");
const SCRIPTS = join(SKILL_DIR, "scripts");
const DUT = join(REPO, "examples", "buggy-inventory");
const workflow = ConfigSchema.parse(
  parse(readFileSync(join(REPO, "runtime", "config", "default.yaml"), "utf8")),
);
const stage1 = workflow.stage[0]!;
const USAGE =
  'usage: record_bug.ts --file PATH --line N --severity critical|high|medium|low --title "short title" --description "what is wrong, why, and the triggering input"\n';

afterAll(cleanupTempDirs);

function tsx(script: string, args: string[], workspace: string, env: NodeJS.ProcessEnv) {
  return run(TSX, [join(SCRIPTS, script), ...args], { cwd: workspace, env: { ...process.env, ...env } });
}

/** Runs every checker of a stage like Check does (in order, stop at the first failure). */
async function checkStage(stage: StageConfig, workspace: string, out: string) {
  for (const checker of stage.checker) {
    const outcome = await runChecker(checker, { workspace, runtime: { OUT: out, DUT, workspace } });
    if (!outcome.ok) return outcome;
  }
  return { ok: true, message: "all passed" };
}

describe("record_bug.ts and list_bugs.ts", () => {
  it("record entries that pass the stage-1 checkers, and list them", async () => {
    const workspace = freshDir("sba-ws");
    const out = join(workspace, "out");
    const env = { OUT: out, DUT };
    const first = tsx(
      "record_bug.ts",
      [
        "--file",
        "inventory.py",
        "--line",
        "90",
        "--severity",
        "high",
        "--title",
        "last unit cannot be sold",
        "--description",
        "remove_stock uses >= so removing the whole quantity raises",
      ],
      workspace,
      env,
    );
    expect(first).toEqual({
      status: 0,
      stdout: `recorded BUG-001: last unit cannot be sold (inventory.py:90, high) in ${out}/static_bug_analysis.md\n`,
      stderr: "",
    });
    expect((await checkStage(stage1, workspace, out)).ok).toBe(true);
    const second = tsx(
      "record_bug.ts",
      [
        "--file",
        join(DUT, "inventory.py"),
        "--line",
        "103",
        "--severity",
        "Medium",
        "--title",
        "total skips an item",
        "--description",
        "loop stops one early",
      ],
      workspace,
      env,
    );
    expect(second.stdout).toBe(
      `recorded BUG-002: total skips an item (inventory.py:103, medium) in ${out}/static_bug_analysis.md\n`,
    );
    expect(readFileSync(join(out, "static_bug_analysis.md"), "utf8")).toBe(
      [
        "# Static Bug Analysis",
        "",
        "## BUG-001: last unit cannot be sold",
        "- **File**: inventory.py",
        "- **Line**: 90",
        "- **Severity**: high",
        "- **Description**: remove_stock uses >= so removing the whole quantity raises",
        "",
        "## BUG-002: total skips an item",
        "- **File**: inventory.py",
        "- **Line**: 103",
        "- **Severity**: medium",
        "- **Description**: loop stops one early",
        "",
        "",
      ].join("\n"),
    );
    expect(await checkStage(stage1, workspace, out)).toEqual({ ok: true, message: "all passed" });
    expect(tsx("list_bugs.ts", [], workspace, env)).toEqual({
      status: 0,
      stdout: `2 bug entries in ${out}/static_bug_analysis.md:\nBUG-001 [high] inventory.py:90 last unit cannot be sold\nBUG-002 [medium] inventory.py:103 total skips an item\n`,
      stderr: "",
    });
    expect(
      tsx(
        "record_bug.ts",
        [
          "--file",
          "inventory.py",
          "--line",
          "90",
          "--severity",
          "low",
          "--title",
          "last unit cannot be sold",
          "--description",
          "again",
        ],
        workspace,
        env,
      ),
    ).toEqual({
      status: 1,
      stdout: "",
      stderr: `record_bug: already recorded as BUG-001 in ${out}/static_bug_analysis.md; nothing written\n`,
    });
  });

  it("falls back to ./out when OUT is unset and skips the DUT check when DUT is unset", () => {
    const workspace = freshDir("sba-ws");
    const env = { ...process.env };
    delete env.OUT;
    delete env.DUT;
    const result = run(
      TSX,
      [
        join(SCRIPTS, "record_bug.ts"),
        "--file",
        "src/a.py",
        "--line",
        "3",
        "--severity",
        "low",
        "--title",
        "t",
        "--description",
        "d",
      ],
      { cwd: workspace, env },
    );
    expect(result).toEqual({
      status: 0,
      stdout: "recorded BUG-001: t (src/a.py:3, low) in out/static_bug_analysis.md\n",
      stderr: "",
    });
    expect(readdirSync(join(workspace, "out"))).toEqual(["static_bug_analysis.md"]);
  });

  const badArgs: Array<[string, string[], string]> = [
    [
      "missing --title",
      ["--file", "inventory.py", "--line", "5", "--severity", "low", "--description", "d"],
      "--title is required",
    ],
    [
      "a line that is not a number",
      ["--file", "inventory.py", "--line", "ten", "--severity", "low", "--title", "t", "--description", "d"],
      '--line must be a positive whole number, got "ten"',
    ],
    [
      "line 0",
      ["--file", "inventory.py", "--line", "0", "--severity", "low", "--title", "t", "--description", "d"],
      '--line must be a positive whole number, got "0"',
    ],
    [
      "an unknown severity",
      ["--file", "inventory.py", "--line", "5", "--severity", "urgent", "--title", "t", "--description", "d"],
      '--severity must be one of critical, high, medium, low, got "urgent"',
    ],
    [
      "a file not in DUT",
      ["--file", "nope.py", "--line", "5", "--severity", "low", "--title", "t", "--description", "d"],
      `--file nope.py not found in DUT (${DUT}): give the path relative to the target folder`,
    ],
    [
      "a file outside DUT",
      [
        "--file",
        "../../package.json",
        "--line",
        "5",
        "--severity",
        "low",
        "--title",
        "t",
        "--description",
        "d",
      ],
      `--file ../../package.json is outside DUT (${DUT}): give a path inside the target folder`,
    ],
    [
      "a line past the end",
      ["--file", "inventory.py", "--line", "999", "--severity", "low", "--title", "t", "--description", "d"],
      "--line 999 is past the end of inventory.py (156 lines)",
    ],
    [
      "a two-line title",
      ["--file", "inventory.py", "--line", "5", "--severity", "low", "--title", "a\nb", "--description", "d"],
      '--title must be one line, got "a\\nb"',
    ],
    ["an unknown option", ["--fille", "x"], "Unknown option '--fille'"],
  ];

  it.each(badArgs)("refuses %s with a clear message and writes nothing", (_name, args, message) => {
    const workspace = freshDir("sba-ws");
    const result = tsx("record_bug.ts", args, workspace, { OUT: join(workspace, "out"), DUT });
    expect(result).toEqual({ status: 2, stdout: "", stderr: `record_bug: ${message}\n${USAGE}` });
    expect(readdirSync(workspace)).toEqual([]);
  });

  it("list_bugs reports what the checkers would reject, and a missing file", async () => {
    const workspace = freshDir("sba-ws");
    const out = join(workspace, "out");
    expect(tsx("list_bugs.ts", [], workspace, { OUT: out })).toEqual({
      status: 1,
      stdout: "",
      stderr: `no bug file at ${out}/static_bug_analysis.md yet: record a bug with record_bug.ts first\n`,
    });
    mkdirSync(out);
    writeFileSync(
      join(out, "static_bug_analysis.md"),
      "# Static Bug Analysis\n\n## BUG-001: no severity\n- **File**: a.py\n- **Line**: about 4\n- **Description**: d\n\n## BUG-002: bad severity\n- **File**: a.py\n- **Line**: 4\n- **Severity**: urgent\n- **Description**: d\n",
    );
    expect(tsx("list_bugs.ts", [], workspace, { OUT: out })).toEqual({
      status: 1,
      stdout: [
        `2 bug entries in ${out}/static_bug_analysis.md:`,
        "BUG-001 [?] a.py:about 4 no severity",
        '  problem (line 3): missing field "- **Severity**: <value>"',
        '  problem (line 3): Line "about 4" is not a line number',
        "BUG-002 [urgent] a.py:4 bad severity",
        '  problem (line 8): Severity "urgent" is not one of critical, high, medium, low',
        "",
      ].join("\n"),
      stderr: "",
    });
    // The real checkers reject the same file.
    const outcome = await checkStage(stage1, workspace, out);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain("missing '- **Severity**: <value>'");
  });
});

describe("hooks.ts", () => {
  const record = { id: "review/static-bug-analysis", dir: SKILL_DIR, hasHooks: true } as SkillRecord;

  it("adds one guidance line to the stage's tasks through the real hook loader, once", async () => {
    const stage = new StageInstance(0, stage1, ["review/static-bug-analysis"]);
    const report = await applySkillHooks(stage, [record]);
    expect(report).toEqual({ applied: ["review/static-bug-analysis"], warnings: [] });
    expect(stage.safeTasks()).toEqual([...stage1.task, GUIDANCE_LINE]);
    await applySkillHooks(stage, [record]);
    expect(stage.safeTasks()).toEqual([...stage1.task, GUIDANCE_LINE]);
    expect(stage.runtimeWarnings).toEqual([]);
  });

  it("also works when the host computes tasks asynchronously, and leaves non-lists alone", async () => {
    const wrappers: Array<(original: (...args: unknown[]) => unknown, ...args: unknown[]) => unknown> = [];
    setupStage({ addHook: (method, fn) => (method === "getTasks" ? wrappers.push(fn) : undefined) });
    expect(wrappers).toHaveLength(1);
    expect(await wrappers[0]!(async () => ["a"])).toEqual(["a", GUIDANCE_LINE]);
    expect(wrappers[0]!(() => null)).toBeNull();
  });

  it("is guidance only: the line names no checker requirement beyond the task text", () => {
    expect(GUIDANCE_LINE.startsWith("Tip (review/static-bug-analysis):")).toBe(true);
    expect(GUIDANCE_LINE).not.toMatch(/\bmust\b|\brequired\b/i);
  });
});
