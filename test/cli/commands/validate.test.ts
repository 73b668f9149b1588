// `skillgate validate` run as a real process on the fixture skills: exact problem lines, modes, exit codes 0/1/2.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { tempRoot } from "../../support/workspace.js";

const repo = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(repo, "node_modules/.bin/tsx");
const fixtures = "test/fixtures/skills";

function cli(...args: string[]) {
  return execa(tsx, ["runtime/cli/main.ts", ...args], { cwd: repo, reject: false, env: { NO_COLOR: "1" } });
}

describe("skillgate validate", () => {
  it("prints each problem as path: message and exits 1 when a skill is invalid", async () => {
    const run = await cli("validate", `${fixtures}/invalid-root`);
    expect(run.exitCode).toBe(1);
    expect(run.stdout.split("\n")).toEqual([
      `${fixtures}/invalid-root/bad-name/SKILL.md: warning: name "Bad_Name" has uppercase letters (loaded anyway); use "bad_name" and rename the folder to match`,
      `${fixtures}/invalid-root/bad-name/SKILL.md: warning: name "Bad_Name" contains "_" (loaded anyway); use only lowercase letters, digits and single hyphens`,
      `${fixtures}/invalid-root/bad-name/SKILL.md: warning: name "Bad_Name" does not match the folder name "bad-name" (compared after NFKC normalisation) (loaded anyway); set name: bad-name or rename the folder to "Bad_Name"`,
      `${fixtures}/invalid-root/colon-value/SKILL.md: invalid YAML in the frontmatter at line 3, column 14: Nested mappings are not allowed in compact mappings; fix the YAML syntax (quote values that contain ": " or start with a special character)`,
      `${fixtures}/invalid-root/no-frontmatter/SKILL.md: no YAML frontmatter: the first line is "# No frontmatter", expected exactly "---"; start SKILL.md with "---", then name: and description:, then a closing "---" line`,
      "4 skill(s) checked in ucagent mode: 2 valid, 2 invalid",
    ]);
  });

  it("applies the mode: strict fails the bad name, lenient recovers the colon value (--json)", async () => {
    const strict = await cli("validate", `${fixtures}/invalid-root/bad-name`, "--mode", "strict", "--json");
    expect(strict.exitCode).toBe(1);
    const strictReport = JSON.parse(strict.stdout);
    expect(strictReport.ok).toBe(false);
    expect(strictReport.skills[0].diagnostics.map((diagnostic: { code: string }) => diagnostic.code)).toEqual(
      ["NAME_NOT_LOWERCASE", "NAME_INVALID_CHARS", "NAME_MISMATCH"],
    );
    const lenient = await cli(
      "validate",
      `${fixtures}/invalid-root/colon-value/SKILL.md`,
      `${fixtures}/valid-root`,
      "--mode",
      "lenient",
      "--json",
    );
    expect(lenient.exitCode).toBe(0);
    const report = JSON.parse(lenient.stdout);
    expect(report.skills.map((skill: { id: string; ok: boolean }) => [skill.id, skill.ok])).toEqual([
      ["colon-value", true],
      ["docs/writer", true],
      ["review/static-check", true],
    ]);
  });

  it("shows a skill under a folder named '..b' relative to the current folder, as any other", async () => {
    const temp = tempRoot("skillgate-validate-dotdot-");
    try {
      mkdirSync(temp.path("..b", "bad"), { recursive: true });
      writeFileSync(temp.path("..b", "bad", "SKILL.md"), "# No frontmatter\n");
      const run = await execa(tsx, [path.join(repo, "runtime/cli/main.ts"), "validate", "..b"], {
        cwd: temp.dir,
        reject: false,
        env: { NO_COLOR: "1" },
      });
      expect(run.exitCode).toBe(1);
      expect(run.stdout.split("\n")).toEqual([
        '..b/bad/SKILL.md: no YAML frontmatter: the first line is "# No frontmatter", expected exactly "---"; start SKILL.md with "---", then name: and description:, then a closing "---" line',
        "1 skill(s) checked in ucagent mode: 0 valid, 1 invalid",
      ]);
    } finally {
      temp.cleanup();
    }
  });

  it("exits 0 on a valid root and 2 on a missing path", async () => {
    const valid = await cli("validate", `${fixtures}/valid-root`, "--mode", "strict");
    expect(valid.exitCode).toBe(0);
    expect(valid.stdout).toBe("2 skill(s) checked in strict mode: 2 valid, 0 invalid");
    const missing = await cli("validate", "no/such/folder");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(
      'error [PATH_NOT_FOUND]: path "no/such/folder" does not exist; pass a skill folder (holding SKILL.md) or a folder of skills',
    );
  });
});
