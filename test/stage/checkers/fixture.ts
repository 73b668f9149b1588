// Shared files of the checker-kind tests: a temp workspace with reports, entries, data files, a schema and a FIFO.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CheckerConfig } from "../../../runtime/config/schema.js";
import { type CheckerContext, type CheckerOutcome, runChecker } from "../../../runtime/stage/index.js";
import { tempRoot } from "../../support/workspace.js";

export interface CheckerFixture {
  root: string;
  ctx: CheckerContext;
  /** runChecker of one checker as the workflow config would give it. */
  run(kind: CheckerConfig["kind"], args: Record<string, unknown>): Promise<CheckerOutcome>;
  cleanup(): void;
}

/** The `cover` args of the entry tests: one reproduction per bug recorded in out/bugs.md. */
export const COVER = { path: "{OUT}/bugs.md", id_pattern: "^## (BUG-\\d+):", field: "Bug" };

/** One row of a checker table: name, kind, args, ok, exact message (<ROOT> stands for the workspace). */
export type CheckerRow = [string, CheckerConfig["kind"], Record<string, unknown>, boolean, string];

export async function checkerFixture(): Promise<CheckerFixture> {
  const temp = tempRoot("skillgate-checkers-");
  const root = temp.dir;
  await mkdir(join(root, "out", "empty-dir"), { recursive: true });
  const ctx: CheckerContext = {
    workspace: root,
    runtime: { workspace: root, OUT: join(root, "out"), DUT: join(root, "dut") },
  };
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
  return {
    root,
    ctx,
    run: (kind, args) => runChecker({ kind, args }, ctx),
    cleanup: () => temp.cleanup(),
  };
}
