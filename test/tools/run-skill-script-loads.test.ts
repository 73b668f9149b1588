// `skillgate call RunSkillScript` loads the static scan only at level 3, the one level that runs it.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { MAIN } from "../mcp/helpers.js";
import { type Fixture, GATE_SKILL, makeFixture, REPO_ROOT } from "./helpers.js";

const run = promisify(execFile);
const fixtures: Fixture[] = [];
afterAll(() => {
  for (const fixture of fixtures) fixture.cleanup();
});

/** The module files one `call RunSkillScript` process loads at `level` (sources, through tsx). */
async function loadedModules(level: 2 | 3): Promise<{ stdout: string; loaded: string[] }> {
  const fixture = makeFixture({ sandboxLevel: level });
  fixtures.push(fixture);
  const record = join(fixture.dir, "loads.txt");
  const args = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Loads"]] });
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      join(REPO_ROOT, "test", "cli", "record-loads.mjs"),
      MAIN,
      "call",
      "RunSkillScript",
      args,
      "--workspace",
      fixture.ws,
      "--config",
      fixture.configFile,
    ],
    { cwd: REPO_ROOT, env: { ...fixture.env, RECORD_LOADS: record } },
  );
  return { stdout, loaded: readFileSync(record, "utf8").split("\n") };
}

const scanModules = (loaded: string[]) => loaded.filter((url) => /\/runtime\/scan\/[^/]+\.ts$/.test(url));

describe("modules of a one-shot RunSkillScript", () => {
  it("level 2 runs the script without loading runtime/scan", async () => {
    const { stdout, loaded } = await loadedModules(2);
    expect(stdout).toContain("exit code 0");
    expect(loaded.some((url) => url.endsWith("/runtime/exec/run-script.ts"))).toBe(true);
    expect(scanModules(loaded)).toEqual([]);
  });

  it("level 3 loads it and scans (so the check above can fail)", async () => {
    const { stdout, loaded } = await loadedModules(3);
    expect(stdout).toContain("exit code 0");
    expect(scanModules(loaded)).toContain(`file://${join(REPO_ROOT, "runtime", "scan", "files.ts")}`);
  });
});
