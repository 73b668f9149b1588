// runtime/cli/main.ts as a real process: only the verb it runs loads, help lists every verb, usage errors exit 2, --version.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandLoaders, commandsFor } from "../../runtime/cli/commands/index.js";
import { MAIN, TSX } from "../mcp/helpers.js";
import { runProcess } from "../support/process.js";
import { tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";

const temp = tempRoot("skillgate-lazy-");
const dir = temp.dir;
afterAll(() => temp.cleanup());
const VERBS = [
  "init",
  "call",
  "serve",
  "connect",
  "status",
  "scan",
  "validate",
  "catalog",
  "export",
  "verify",
];

function skillgate(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runProcess(
    process.execPath,
    ["--import", "tsx", "--import", join(REPO_ROOT, "test", "cli", "record-loads.mjs"), MAIN, ...args],
    { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1", ...env } },
  );
}

describe("lazy CLI verbs", () => {
  it("registers one verb for a known verb, every verb otherwise", async () => {
    expect(commandLoaders.map(([name]) => name)).toEqual(VERBS);
    expect(await commandsFor(["catalog", "x"])).toHaveLength(1);
    for (const argv of [[], ["--help"], ["help", "catalog"], ["catalogue"]])
      expect(await commandsFor(argv)).toHaveLength(VERBS.length);
  });

  it("--help still lists every verb in order; an unknown verb gets a suggestion and exit 2", async () => {
    const help = await skillgate(["--help"], { RECORD_LOADS: join(dir, "help.txt") });
    expect(help.code).toBe(0);
    const listed = help.stdout
      .split("\n")
      .map((line) => /^ {2}([a-z]+) /.exec(line)?.[1])
      .filter((name) => name !== undefined && name !== "help");
    expect(listed).toEqual(VERBS);
    const typo = await skillgate(["catalogue"], { RECORD_LOADS: join(dir, "typo.txt") });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: unknown command 'catalogue'\n(Did you mean catalog?)");
  });

  // (ajv is compiled on first use when running from sources; built, the standalone validator replaces it.)
  it("`catalog` loads neither zod, yaml nor another verb's module", async () => {
    const record = join(dir, "catalog.txt");
    const listed = await skillgate(["catalog", "test/fixtures/skills/valid-root", "--json"], {
      RECORD_LOADS: record,
    });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).ok).toBe(true);
    const loaded = readFileSync(record, "utf8").split("\n");
    expect(loaded.some((url) => url.endsWith("/runtime/cli/commands/catalog.ts"))).toBe(true);
    const unwanted = loaded.filter((url) =>
      /\/node_modules\/(zod|yaml)\/|\/runtime\/cli\/commands\/(init|call|serve|connect|status|scan|validate)\.ts$/.test(
        url,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});

describe("skillgate (main)", () => {
  it("--version prints the package version", async () => {
    const outcome = await runProcess(TSX, [MAIN, "--version"], { cwd: REPO_ROOT, env: process.env });
    expect(outcome).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
  });
});
