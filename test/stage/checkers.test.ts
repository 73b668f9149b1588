// The built-in checker kinds on real files and real processes, with the exact messages the agent sees.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../runtime/config/index.js";
import type { CheckerConfig } from "../../runtime/config/schema.js";
import { type CheckerContext, checkerArgProblems, runChecker } from "../../runtime/stage/index.js";
import { removeTree, tempRoot } from "../support/workspace.js";

let root: string;
let ctx: CheckerContext;

beforeAll(async () => {
  root = tempRoot("skillgate-checkers-").dir;
  await mkdir(join(root, "out", "empty-dir"), { recursive: true });
  ctx = { workspace: root, runtime: { workspace: root, OUT: join(root, "out"), DUT: join(root, "dut") } };
  const files: Record<string, string> = {
    "out/report.md": "# Report\n\n## Summary\nAll good.\n",
    "out/empty.md": "",
    "out/bugs.md": [
      "# Bugs",
      "## BUG-1: off by one",
      "- **File**: src/a.ts",
      "- **Line**: 12",
      "- **Severity**: high",
      "",
      "## BUG-2: null deref",
      "- **File**: src/b.ts",
      "- **Line**:   ",
      "",
    ].join("\n"),
    "out/repro-one.md": "# Repro\n## REPRO-1\n- **Bug**: BUG-1\n",
    "out/repro-all.md":
      "# Repro\n## REPRO-1\n- **Bug**: BUG-1\n## REPRO-2\n- **Bug**: BUG-2\n## REPRO-3\n- **Bug**: BUG-2\n",
    "out/repro-extra.md":
      "# Repro\n## REPRO-1\n- **Bug**: BUG-1\n## REPRO-2\n- **Bug**: BUG-2\n## REPRO-3\n- **Bug**: BUG-9\n",
    "out/data.json": JSON.stringify({ items: [{ file: "a.ts", line: 3 }, { line: "x" }] }),
    "out/data.yaml": "items:\n  - file: a.ts\n    line: 3\n",
    "out/broken.json": "{ not json",
    "schema.json": JSON.stringify({
      type: "object",
      required: ["items"],
      properties: {
        items: {
          type: "array",
          items: { type: "object", required: ["file", "line"], properties: { line: { type: "integer" } } },
        },
      },
    }),
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
  execFileSync("mkfifo", [join(root, "out", "pipe.md")]);
});

afterAll(async () => {
  removeTree(root);
});

const COVER = { path: "{OUT}/bugs.md", id_pattern: "^## (BUG-\\d+):", field: "Bug" };

const run = (kind: CheckerConfig["kind"], args: Record<string, unknown>) => runChecker({ kind, args }, ctx);

describe("checkers", () => {
  it.each<[string, CheckerConfig["kind"], Record<string, unknown>, boolean, string]>([
    [
      "file_exists ok",
      "file_exists",
      { paths: ["out/report.md", "{OUT}/bugs.md"] },
      true,
      "file_exists: 2 path(s) present and non-empty.",
    ],
    [
      "file_exists missing, empty file, empty folder",
      "file_exists",
      { paths: ["out/nope.md", "out/empty.md", "out/empty-dir"] },
      false,
      "file_exists: out/nope.md does not exist; create it as the stage task describes; out/empty.md is empty; write its content; out/empty-dir is an empty folder; put the stage's output in it.",
    ],
    [
      "file_exists on a FIFO (never opened, so it cannot block)",
      "file_exists",
      { paths: ["out/pipe.md", "out/report.md"] },
      false,
      "file_exists: out/pipe.md is a fifo, not a regular file; write the output as a regular file.",
    ],
    [
      "headings ok",
      "markdown_headings",
      { path: "{OUT}/report.md", headings: ["# Report", " ## Summary "] },
      true,
      "markdown_headings: out/report.md has all 2 heading(s).",
    ],
    [
      "headings missing",
      "markdown_headings",
      { path: "out/report.md", headings: ["# Report", "## Findings", "## Fix"] },
      false,
      "markdown_headings: out/report.md is missing the heading line(s) '## Findings', '## Fix'; add each as a line of its own, exactly as written.",
    ],
    [
      "headings file missing",
      "markdown_headings",
      { path: "out/none.md", headings: ["# A"] },
      false,
      "markdown_headings: out/none.md does not exist; create it as the stage task describes.",
    ],
    [
      "entries with a blank field",
      "markdown_entries",
      {
        path: "out/bugs.md",
        entry_pattern: "^## BUG-\\d+: .+$",
        required_fields: ["File", "Line", "Severity"],
      },
      false,
      "markdown_entries: out/bugs.md: line 7, entry '## BUG-2: null deref': missing '- **Line**: <value>'; line 7, entry '## BUG-2: null deref': missing '- **Severity**: <value>'. Add each missing field as a line '- **Field**: value' (non-empty) inside its entry.",
    ],
    [
      "entries ok",
      "markdown_entries",
      { path: "out/bugs.md", entry_pattern: "^## BUG-\\d+: .+$", required_fields: ["File"], min_entries: 2 },
      true,
      "markdown_entries: out/bugs.md has 2 complete entries.",
    ],
    [
      "cover: one reproduction for two recorded bugs",
      "markdown_entries",
      { path: "out/repro-one.md", entry_pattern: "^## REPRO-\\d+$", cover: COVER },
      false,
      "markdown_entries: out/repro-one.md must cover each of the 2 id(s) recorded in out/bugs.md: no entry names BUG-2 (recorded in out/bugs.md); add one entry per recorded id with '- **Bug**: <id>'.",
    ],
    [
      "cover: every recorded bug reproduced (one twice)",
      "markdown_entries",
      { path: "out/repro-all.md", entry_pattern: "^## REPRO-\\d+$", cover: COVER },
      true,
      "markdown_entries: out/repro-all.md has 3 complete entries, one or more for each Bug id recorded in bugs.md.",
    ],
    [
      "cover: an entry names a bug that was never recorded",
      "markdown_entries",
      { path: "out/repro-extra.md", entry_pattern: "^## REPRO-\\d+$", cover: COVER },
      false,
      "markdown_entries: out/repro-extra.md must cover each of the 2 id(s) recorded in out/bugs.md: 'BUG-9' (line 6) is not recorded in out/bugs.md; name a recorded id.",
    ],
    [
      "cover: the recorded file is missing",
      "markdown_entries",
      {
        path: "out/repro-one.md",
        entry_pattern: "^## REPRO-\\d+$",
        cover: { ...COVER, path: "out/none.md" },
      },
      false,
      "markdown_entries: out/none.md does not exist; create it as the stage task describes.",
    ],
    [
      "too few entries",
      "markdown_entries",
      { path: "out/report.md", entry_pattern: "^## BUG-\\d+: .+$", required_fields: ["File"] },
      false,
      "markdown_entries: out/report.md has 0 entries matching /^## BUG-\\d+: .+$/ (need at least 1); start each entry with a line matching that pattern.",
    ],
    [
      "regex ok",
      "regex_count",
      { path: "out/bugs.md", pattern: "^## BUG-", flags: "m", min: 2, max: 2 },
      true,
      "regex_count: out/bugs.md has 2 match(es) of /^## BUG-/m.",
    ],
    [
      "regex too few (min defaults to 1)",
      "regex_count",
      { path: "out/report.md", pattern: "TODO" },
      false,
      "regex_count: out/report.md has 0 match(es) of /TODO/; need at least 1. Add the missing content.",
    ],
    [
      "regex too many",
      "regex_count",
      { path: "out/bugs.md", pattern: "BUG-", max: 1 },
      false,
      "regex_count: out/bugs.md has 2 match(es) of /BUG-/; allowed at most 1. Remove the extra ones.",
    ],
    [
      "json schema mismatch",
      "json_schema",
      { path: "out/data.json", schema_file: "schema.json" },
      false,
      "json_schema: out/data.json does not match the schema: /items/1 must have required property 'file'; /items/1/line must be integer. Fix those fields.",
    ],
    [
      "yaml against inline schema",
      "json_schema",
      { path: "out/data.yaml", schema: { type: "object", required: ["items"] } },
      true,
      "json_schema: out/data.yaml matches the schema.",
    ],
    [
      "json syntax error",
      "json_schema",
      { path: "out/broken.json", schema: { type: "object" } },
      false,
      "json_schema: out/broken.json is not valid JSON at line 1 column 3 (Expected property name or '}'); fix the syntax.",
    ],
    [
      "command ok",
      "command",
      { argv: ["node", "-e", "process.exit(0)"] },
      true,
      "command: `node -e process.exit(0)` exited with 0.",
    ],
    [
      "command expected exit differs",
      "command",
      { argv: ["node", "-e", "console.log('bad thing'); process.exit(3)"] },
      false,
      "command: `node -e console.log('bad thing'); process.exit(3)` exited with code 3 (expected 0, cwd " +
        "<ROOT>). Fix what its output reports.\nOutput (last 40 lines):\nbad thing",
    ],
    [
      "command not found",
      "command",
      { argv: ["definitely-not-a-program-xyz"] },
      false,
      "command: `definitely-not-a-program-xyz` could not run: program 'definitely-not-a-program-xyz' not found (cwd <ROOT>). Fix the checker's argv or install the program.",
    ],
    [
      "command timeout",
      "command",
      { argv: ["node", "-e", "setTimeout(() => {}, 10000)"], timeout_seconds: 0.5 },
      false,
      "command: `node -e setTimeout(() => {}, 10000)` timed out after 0.5 s (cwd <ROOT>).",
    ],
    [
      "command sees OUT and runs in the workspace",
      "command",
      {
        argv: [
          "node",
          "-e",
          "process.exit(process.env.OUT === require('path').join(process.cwd(), 'out') ? 0 : 1)",
        ],
      },
      true,
      "command: `node -e process.exit(process.env.OUT === require('path').join(process.cwd(), 'out') ? 0 : 1)` exited with 0.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    const outcome = await run(kind, args);
    expect(outcome).toEqual({ ok, message: message.replaceAll("<ROOT>", root) });
  });

  it("the default workflow's reproduction stage needs one reproduction per recorded bug", async () => {
    const { config } = await loadConfig({ workspace: root, env: { SKILLGATE_HOME: join(root, "home") } });
    const stage = config.stage.find((s) => s.name === "bug_reproduction")!;
    const bug = (n: number) =>
      `## BUG-00${n}: defect ${n}\n- **File**: a.py\n- **Line**: ${n}\n- **Severity**: low\n- **Description**: d\n`;
    const repro = (n: number) =>
      `## REPRO-00${n}: BUG-00${n}\n- **Bug**: BUG-00${n}\n- **Command**: python3 r.py\n- **Observed**: x\n- **Verdict**: reproduced\n`;
    await writeFile(
      join(root, "out", "static_bug_analysis.md"),
      `# Static Bug Analysis\n\n${[1, 2, 3, 4, 5].map(bug).join("\n")}`,
    );
    const runAll = async () => {
      for (const checker of stage.checker) {
        const outcome = await runChecker(checker, ctx);
        if (!outcome.ok) return outcome.message;
      }
      return "ok";
    };
    await writeFile(join(root, "out", "reproduction.md"), `# Bug Reproduction\n\n${repro(1)}`);
    expect(await runAll()).toBe(
      "markdown_entries: out/reproduction.md must cover each of the 5 id(s) recorded in out/static_bug_analysis.md: no entry names BUG-002, BUG-003, BUG-004, BUG-005 (recorded in out/static_bug_analysis.md); add one entry per recorded id with '- **Bug**: <id>'.",
    );
    await writeFile(
      join(root, "out", "reproduction.md"),
      `# Bug Reproduction\n\n${[1, 2, 3, 4, 5].map(repro).join("\n")}`,
    );
    expect(await runAll()).toBe("ok");
  });

  it("a cover id_pattern without a capture group is refused at load", () => {
    expect(
      checkerArgProblems({
        kind: "markdown_entries",
        args: {
          path: "a.md",
          entry_pattern: "^## R",
          cover: { path: "b.md", id_pattern: "^## BUG", field: "Bug" },
        },
      }),
    ).toEqual(["args.cover.id_pattern: not a valid regular expression with a capture group for the id"]);
  });

  it("bad args come back as a failed outcome naming the problem", async () => {
    expect(await run("regex_count", { path: "x", pattern: "[" })).toEqual({
      ok: false,
      message:
        "regex_count: the checker's args are invalid (args: pattern is not a valid regular expression); the workflow config must be fixed.",
    });
    expect(checkerArgProblems({ kind: "command", args: { argv: [] } })).toEqual([
      "args.argv: Too small: expected array to have >=1 items",
    ]);
  });
});
