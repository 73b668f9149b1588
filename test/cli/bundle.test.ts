// The built CLI (one-file bundle run from a V8 code cache) answers exactly as the sources do, verb by verb.
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { MAIN, TSX } from "../mcp/helpers.js";
import { runProcess } from "../support/process.js";
import { type Fixture, GATE_SKILL, makeFixture, REPO_ROOT } from "../tools/helpers.js";

let fixture: Fixture;

function cli(entry: "built" | "sources", args: string[], env: NodeJS.ProcessEnv = fixture.env) {
  const [file, ...argv] = entry === "built" ? [process.execPath, BUILT_MAIN] : [TSX, MAIN];
  return runProcess(file as string, [...argv, ...args], { cwd: REPO_ROOT, env });
}

beforeAll(() => {
  ensureBuilt();
  fixture = makeFixture();
}, 600_000);
afterAll(() => fixture?.cleanup());

const ws = () => ["--workspace", fixture.ws, "--config", fixture.configFile];

describe("built CLI", () => {
  const verbs: Array<[string, () => string[]]> = [
    ["help", () => ["--help"]],
    ["unknown verb", () => ["catalogue"]],
    ["catalog --json", () => ["catalog", "test/fixtures/skills/valid-root", "--json"]],
    ["catalog of a root with broken skills", () => ["catalog", "test/fixtures/skills/invalid-root"]],
    ["catalog --json before the root", () => ["catalog", "--json", "test/fixtures/skills/valid-root"]],
    ["catalog of a missing root", () => ["catalog", "test/fixtures/skills/no-such-root"]],
    ["catalog of a missing root --json", () => ["catalog", "test/fixtures/skills/no-such-root", "--json"]],
    ["catalog with two roots (full CLI: usage error)", () => ["catalog", "skills", "test/fixtures/skills"]],
    ["catalog --help (full CLI)", () => ["catalog", "--help"]],
    [
      "validate --mode strict --json",
      () => ["validate", "test/fixtures/skills/invalid-root", "--mode", "strict", "--json"],
    ],
    ["validate --mode lenient", () => ["validate", "test/fixtures/skills/invalid-root", "--mode", "lenient"]],
    ["scan --json", () => ["scan", "skills", "--json"]],
    ["call ListSkill", () => ["call", "ListSkill", ...ws()]],
    ["call ListSkill --json (one-tool bundle)", () => ["call", "ListSkill", ...ws(), "--json"]],
    ["call ListSkill with an argument it does not take", () => ["call", "ListSkill", '{"x": 1}', ...ws()]],
    ["call ListSkill --help", () => ["call", "ListSkill", "--help"]],
    [
      "call RunSkillScript of a skill that does not exist",
      () => [
        "call",
        "RunSkillScript",
        JSON.stringify({ commands: [["no/such", "x.py", ""]] }),
        ...ws(),
        "--json",
      ],
    ],
    ["call RunSkillScript without commands", () => ["call", "RunSkillScript", "{}", ...ws()]],
    ["call Status --json", () => ["call", "Status", ...ws(), "--json"]],
    ["call with bad JSON", () => ["call", "ReadTextFile", "{nope", ...ws()]],
  ];
  it.each(verbs)("%s: same stdout, stderr and exit code as the sources", async (_name, args) => {
    const sources = await cli("sources", args());
    const built = await cli("built", args());
    expect(built).toEqual(sources);
  });

  it("runs a skill script (RunSkillScript) and records its use, like the sources", async () => {
    const call = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Built"]] });
    const built = await cli("built", ["call", "RunSkillScript", call, ...ws(), "--json"]);
    expect(built.code).toBe(0);
    const result = JSON.parse(built.stdout) as { isError: boolean; text: string };
    expect(result.isError).toBe(false);
    expect(result.text).toContain("exit code 0");
  });

  it("runs a .ts helper through the fast path (esbuild loaded on the cache miss), like the sources", async () => {
    const call = JSON.stringify({ commands: [[GATE_SKILL, "helper.ts", "a b"]] });
    const built = await cli("built", ["call", "RunSkillScript", call, ...ws(), "--json"]);
    expect(built.stderr).toBe("");
    const result = JSON.parse(built.stdout) as { isError: boolean; text: string };
    expect(result.isError).toBe(false);
    expect(result.text).toContain("hello from helper.ts with 2 args");
  });

  it("loads the default pack's hooks.ts (tsx) on Status exactly as the sources do", async () => {
    const home = join(fixture.dir, "default-home");
    const env = { ...fixture.env, SKILLGATE_HOME: home };
    const defaultWs = join(fixture.dir, "default-ws");
    expect((await cli("sources", ["init", defaultWs], env)).code).toBe(0);
    const sources = await cli("sources", ["call", "Status", "--workspace", defaultWs], env);
    const built = await cli("built", ["call", "Status", "--workspace", defaultWs], env);
    expect(sources.stdout).toContain("Tip (review/static-bug-analysis)");
    expect(built).toEqual(sources);
  });

  it("loads the lock code (proper-lockfile, graceful-fs) only in a call that takes the workspace lock", async () => {
    const probe = join(fixture.dir, "lock-code.txt");
    const env = { ...fixture.env, LOCK_CODE_PROBE: probe };
    const preload = ["--require", join(REPO_ROOT, "test", "cli", "lock-code-probe.cjs"), BUILT_MAIN];
    const run = (args: string[]) =>
      runProcess(process.execPath, [...preload, ...args], { cwd: REPO_ROOT, env });
    expect((await run(["call", "ListSkill", ...ws()])).code).toBe(0);
    // The list evidence is recorded by now: a repeated ListSkill appends nothing and takes no lock.
    expect((await run(["call", "ListSkill", ...ws()])).code).toBe(0);
    const call = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Lock"]] });
    expect((await run(["call", "RunSkillScript", call, ...ws()])).code).toBe(0);
    expect(readFileSync(probe, "utf8").split("\n").slice(1, 3)).toEqual(["false", "true"]);
  });

  it("loads the lock code of a RunSkillScript call while the script's child runs, not after it exits", async () => {
    const probe = join(fixture.dir, "lock-warm.txt");
    const preload = ["--require", join(REPO_ROOT, "test", "cli", "lock-warm-probe.cjs"), BUILT_MAIN];
    const call = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Warm"]] });
    const run = await runProcess(process.execPath, [...preload, "call", "RunSkillScript", call, ...ws()], {
      cwd: REPO_ROOT,
      env: { ...fixture.env, LOCK_WARM_PROBE: probe },
    });
    expect(run.code).toBe(0);
    const exits = readFileSync(probe, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { argv: string[]; lockCode: boolean });
    const script = exits.filter((exit) => exit.argv.some((arg) => arg.includes("make_report.py")));
    expect(script).toHaveLength(1);
    expect(script[0]?.lockCode).toBe(true);
  });

  it("keeps one V8 code cache per verb (per tool for call) next to the bundle; catalog, call ListSkill and call RunSkillScript run from bundles of their own; catalog loads no yaml, zod or ajv compiler", async () => {
    expect((await cli("built", ["call", "ListSkill", ...ws()])).code).toBe(0);
    const record = join(fixture.dir, "loads.txt");
    const listed = await runProcess(
      process.execPath,
      [
        "--import",
        join(REPO_ROOT, "test", "cli", "record-loads.mjs"),
        BUILT_MAIN,
        "catalog",
        "skills",
        "--json",
      ],
      { cwd: REPO_ROOT, env: { ...fixture.env, RECORD_LOADS: record } },
    );
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).ok).toBe(true);
    const loaded = readFileSync(record, "utf8").split("\n");
    expect(
      loaded.filter((url) =>
        /\/node_modules\/(yaml|zod)\/|\/node_modules\/ajv\/(?!dist\/runtime\/)/.test(url),
      ),
    ).toEqual([]);
    const caches = readdirSync(join(REPO_ROOT, "dist", "cli")).filter((name) => name.endsWith(".cache"));
    // `catalog ROOT --json` runs from its own small bundle (other forms of the verb from the full one), from a code
    // cache named by that bundle's digest (the launcher compiles it as a vm.Script, so no require records it).
    const catalogId = createHash("sha256")
      .update(readFileSync(join(REPO_ROOT, "dist", "cli", "catalog.cjs")))
      .digest("hex")
      .slice(0, 16);
    expect(
      caches.some((name) => name.startsWith(`skillgate.${catalogId}.`) && name.endsWith(".catalog.cache")),
    ).toBe(true);
    expect(caches.some((name) => name.endsWith(".call.ListSkill.cache"))).toBe(true);
    // call ListSkill and call RunSkillScript run from bundles of their own (one tool each): other bundle ids.
    expect((await cli("built", ["call", "Status", ...ws()])).code).toBe(0);
    const call = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Own"]] });
    expect((await cli("built", ["call", "RunSkillScript", call, ...ws()])).code).toBe(0);
    const ids = readdirSync(join(REPO_ROOT, "dist", "cli"))
      .map((name) =>
        /^skillgate\.([0-9a-f]{16})\..*\.call\.(ListSkill|RunSkillScript|Status)\.cache$/.exec(name),
      )
      .filter((match) => match !== null)
      .map((match) => [match[2], match[1]]);
    const idOf = new Map(ids as Array<[string, string]>);
    expect(new Set([idOf.get("ListSkill"), idOf.get("RunSkillScript"), idOf.get("Status")]).size).toBe(3);
    // An unknown tool shares the plain call cache: a typo writes no new file.
    await cli("built", ["call", "NoSuchTool", ...ws()]);
    const after = readdirSync(join(REPO_ROOT, "dist", "cli")).filter((name) => name.endsWith(".cache"));
    expect(after.filter((name) => name.includes("NoSuchTool"))).toEqual([]);
  });
});

describe("the V8 code cache of a verb", () => {
  it("is written by the first run that succeeds, not by a failed one before it", async () => {
    // A copy of the built package of its own: the shared dist/ already holds caches from other files' runs.
    const copy = mkdtempSync(join(tmpdir(), "skillgate-cache-"));
    try {
      cpSync(join(REPO_ROOT, "dist"), join(copy, "dist"), {
        recursive: true,
        filter: (source) => !source.endsWith(".cache"),
      });
      cpSync(join(REPO_ROOT, "package.json"), join(copy, "package.json"));
      symlinkSync(join(REPO_ROOT, "node_modules"), join(copy, "node_modules"));
      const main = join(copy, "dist", "runtime", "cli", "main.js");
      const caches = () =>
        readdirSync(join(copy, "dist", "cli")).filter((name) => name.endsWith(".call.RunSkillScript.cache"));
      const run = (skill: string) =>
        runProcess(
          process.execPath,
          [
            main,
            "call",
            "RunSkillScript",
            JSON.stringify({ commands: [[skill, "make_report.py", "--title C"]] }),
            ...ws(),
          ],
          { cwd: REPO_ROOT, env: fixture.env },
        );
      expect((await run("no/such-skill")).code).toBe(1);
      expect(caches()).toEqual([]);
      expect((await run(GATE_SKILL)).code).toBe(0);
      expect(caches()).toHaveLength(1);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
