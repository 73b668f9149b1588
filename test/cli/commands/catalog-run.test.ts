// runCatalog (the catalog verb's work): a missing root in text and JSON, and the text form of warnings and skipped skills.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCatalog } from "../../../runtime/cli/commands/catalog-run.js";
import { REPO_ROOT } from "../../tools/helpers.js";
import { recordingIO, skillgate } from "../helpers.js";

const MISSING = 'skill root "no/such/root" does not exist; pass the folder that holds the skill folders';

describe("runCatalog", () => {
  it("a missing root is PATH_NOT_FOUND, exit 2, on stderr in text mode", () => {
    const io = recordingIO();
    runCatalog("no/such/root", false, io);
    expect(io).toMatchObject({ outs: [], errs: [`error [PATH_NOT_FOUND]: ${MISSING}`], exitCode: 2 });
  });

  it("a missing root in JSON mode is {ok: false, error} on stdout", () => {
    const io = recordingIO();
    runCatalog("no/such/root", true, io);
    expect(io.errs).toEqual([]);
    expect(io.exitCode).toBe(2);
    expect(JSON.parse(io.outs.join(""))).toEqual({
      ok: false,
      error: { code: "PATH_NOT_FOUND", message: MISSING, details: { root: "no/such/root" } },
    });
  });

  it("prints each skill's warnings under it, then the skipped skills with why (exit 0)", async () => {
    const root = join(REPO_ROOT, "test", "fixtures", "skills", "invalid-root");
    const outcome = await skillgate(["catalog", root], { ...process.env, NO_COLOR: "1" });
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).toBe("");
    expect(outcome.stdout.split("\n")).toEqual([
      `2 skill(s) in ${root}`,
      "bad-name  (name: Bad_Name)",
      "  Loads in ucagent mode with warnings, fails strict mode.",
      '  warning: name "Bad_Name" has uppercase letters (loaded anyway); use "bad_name" and rename the folder to match',
      '  warning: name "Bad_Name" contains "_" (loaded anyway); use only lowercase letters, digits and single hyphens',
      '  warning: name "Bad_Name" does not match the folder name "bad-name" (compared after NFKC normalisation) (loaded anyway); set name: bad-name or rename the folder to "Bad_Name"',
      "good  (name: good)",
      "  A valid skill beside broken ones.",
      "2 problem(s):",
      `${root}/colon-value/SKILL.md: invalid YAML in the frontmatter at line 3, column 14: Nested mappings are not allowed in compact mappings; fix the YAML syntax (quote values that contain ": " or start with a special character)`,
      `${root}/no-frontmatter/SKILL.md: no YAML frontmatter: the first line is "# No frontmatter", expected exactly "---"; start SKILL.md with "---", then name: and description:, then a closing "---" line`,
      "",
    ]);
  });
});
