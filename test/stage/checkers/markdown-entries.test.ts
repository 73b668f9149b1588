// Checker `markdown_entries` (checkers/markdown-entries.ts): entry fields, minimum count and `cover` of ids recorded in another file.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../runtime/config/index.js";
import { checkerArgProblems, runChecker } from "../../../runtime/stage/index.js";
import { type CheckerFixture, type CheckerRow, COVER, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("markdown_entries", () => {
  it.each<CheckerRow>([
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
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });

  it("the default workflow's reproduction stage needs one reproduction per recorded bug", async () => {
    const { config } = await loadConfig({
      workspace: fx.root,
      env: { SKILLGATE_HOME: join(fx.root, "home") },
    });
    const stage = config.stage.find((s) => s.name === "bug_reproduction")!;
    const bug = (n: number) =>
      `## BUG-00${n}: defect ${n}\n- **File**: a.py\n- **Line**: ${n}\n- **Severity**: low\n- **Description**: d\n`;
    const repro = (n: number) =>
      `## REPRO-00${n}: BUG-00${n}\n- **Bug**: BUG-00${n}\n- **Command**: python3 r.py\n- **Observed**: x\n- **Verdict**: reproduced\n`;
    await writeFile(
      join(fx.root, "out", "static_bug_analysis.md"),
      `# Static Bug Analysis\n\n${[1, 2, 3, 4, 5].map(bug).join("\n")}`,
    );
    const runAll = async () => {
      for (const checker of stage.checker) {
        const outcome = await runChecker(checker, fx.ctx);
        if (!outcome.ok) return outcome.message;
      }
      return "ok";
    };
    await writeFile(join(fx.root, "out", "reproduction.md"), `# Bug Reproduction\n\n${repro(1)}`);
    expect(await runAll()).toBe(
      "markdown_entries: out/reproduction.md must cover each of the 5 id(s) recorded in out/static_bug_analysis.md: no entry names BUG-002, BUG-003, BUG-004, BUG-005 (recorded in out/static_bug_analysis.md); add one entry per recorded id with '- **Bug**: <id>'.",
    );
    await writeFile(
      join(fx.root, "out", "reproduction.md"),
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
});
