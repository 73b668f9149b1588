// `skillgate catalog` run as a real process: catalog order, metadata in --json, skipped skills, a missing root.
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(repo, "node_modules/.bin/tsx");
const fixtures = "test/fixtures/skills";

function cli(...args: string[]) {
  return execa(tsx, ["runtime/cli/main.ts", ...args], { cwd: repo, reject: false, env: { NO_COLOR: "1" } });
}

describe("skillgate catalog", () => {
  it("lists id, name, description and scripts in catalog order", async () => {
    const run = await cli("catalog", `${fixtures}/valid-root`);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split("\n")).toEqual([
      `2 skill(s) in ${path.join(repo, fixtures, "valid-root")}`,
      "docs/writer  (name: writer)",
      "  Writes short Markdown reports from notes.",
      "review/static-check  (name: static-check)",
      "  Reviews C sources for common bugs. Use when a stage asks for a static review.",
      "  scripts: check.py",
    ]);
  });

  it("includes each skill's metadata (as strings) in --json", async () => {
    const run = await cli("catalog", "skills", "--json");
    expect(run.exitCode).toBe(0);
    const skills = JSON.parse(run.stdout).skills as Array<{ id: string; metadata: Record<string, string> }>;
    expect(Object.fromEntries(skills.map((skill) => [skill.id, skill.metadata]))).toEqual({
      "authoring/skill-creator": {},
      "review/static-bug-analysis": {},
      "runners/js-runner": { "skillgate-network": "true", "skillgate-cache": "bun" },
      "runners/python-runner": { "skillgate-network": "true", "skillgate-cache": "uv" },
    });
  });

  it("reports skipped skills in JSON and exits 2 for a missing root", async () => {
    const run = await cli("catalog", `${fixtures}/invalid-root`, "--json");
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.skills.map((skill: { id: string }) => skill.id)).toEqual(["bad-name", "good"]);
    expect(report.skipped.map((diagnostic: { code: string }) => diagnostic.code)).toEqual([
      "YAML_ERROR",
      "NO_FRONTMATTER",
    ]);
    const missing = await cli("catalog", "no/such/root", "--json");
    expect(missing.exitCode).toBe(2);
    expect(JSON.parse(missing.stdout).error.code).toBe("PATH_NOT_FOUND");
  });
});
