// skillgate installed under another project's node_modules (npm install / npx): init and sandboxed RunSkillScript from its bin.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../support/host-probes.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

const REPO = realpathSync(fileURLToPath(new URL("../../", import.meta.url)));
const BUNDLE = join(REPO, "dist", "cli", "skillgate.cjs");

let temp: TempRoot | undefined;
let dir: string;
let project: string;
let ws: string;
let extra: string;
let env: NodeJS.ProcessEnv;
let installed: string;

/** The newest modification time of the files under `root` with one of `extensions` (the sources of dist/). */
function newestSource(root: string, extensions: string[]): { file: string; mtime: number } {
  let newest = { file: "", mtime: 0 };
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !extensions.some((ext) => entry.name.endsWith(ext))) continue;
    const file = join(entry.parentPath, entry.name);
    const mtime = statSync(file).mtimeMs;
    if (mtime > newest.mtime) newest = { file, mtime };
  }
  return newest;
}

/**
 * The project's lockfile: skillgate from the packed tarball and exactly the production entries of the repo's
 * own lockfile, so `npm ci --offline` installs from the npm cache by integrity, with npm's own layout.
 */
function projectLock(tarball: string): { manifest: object; lock: object } {
  const repoLock = JSON.parse(readFileSync(join(REPO, "package-lock.json"), "utf8")) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Record<string, unknown>;
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name: "host-project", version: "1.0.0", dependencies: { skillgate: spec } },
    "node_modules/skillgate": {
      version: pkg.version,
      resolved: spec,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [key, entry] of Object.entries(repoLock.packages)) {
    if (key === "" || entry.dev === true) continue;
    const { devOptional: _devOptional, ...rest } = entry;
    packages[key] = rest;
  }
  return {
    manifest: { name: "host-project", version: "1.0.0", private: true, dependencies: { skillgate: spec } },
    lock: { name: "host-project", version: "1.0.0", lockfileVersion: 3, requires: true, packages },
  };
}

function skillgate(...args: string[]): {
  status: number | null;
  json: Record<string, unknown>;
  stderr: string;
} {
  const run = spawnSync(join(project, "node_modules", ".bin", "skillgate"), args, {
    cwd: project,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    json = { unparsed: run.stdout };
  }
  return { status: run.status, json, stderr: run.stderr };
}

type Command = { status: string; sandboxed: boolean; argv: string[]; output: string };
const commandsOf = (json: Record<string, unknown>): Command[] =>
  ((json.structured as { commands?: Command[] } | undefined)?.commands ?? []) as Command[];

beforeAll(() => {
  // The tarball carries dist/ as built: a stale build would test old code, so say how to refresh it.
  const source = newestSource(join(REPO, "runtime"), [".ts", ".yaml"]);
  expect(existsSync(BUNDLE), `no ${relative(REPO, BUNDLE)}: run npm run build (npm ci does it)`).toBe(true);
  expect(
    statSync(BUNDLE).mtimeMs,
    `dist/ is older than ${relative(REPO, source.file)}: run npm run build so the packed tarball holds the current code`,
  ).toBeGreaterThanOrEqual(source.mtime);

  temp = tempRoot("sg-install-", { realpath: true });
  dir = temp.dir;
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }),
  ) as Array<{ filename: string }>;
  const tarball = join(dir, packed[0]?.filename as string);
  project = join(dir, "host-project");
  mkdirSync(project);
  const { manifest, lock } = projectLock(tarball);
  writeFileSync(join(project, "package.json"), JSON.stringify(manifest, null, 2));
  writeFileSync(join(project, "package-lock.json"), JSON.stringify(lock, null, 2));
  const cache = execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  const install = spawnSync(
    "npm",
    ["ci", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", "--cache", cache],
    { cwd: project, encoding: "utf8" },
  );
  expect(
    install.status,
    `npm ci --offline of the packed skillgate failed (the npm cache ${cache} must hold its dependencies: run npm ci in the repo first): ${install.stderr}`,
  ).toBe(0);
  installed = join(project, "node_modules", "skillgate");

  ws = join(project, "ws");
  mkdirSync(join(ws, "dut"), { recursive: true });
  writeFileSync(join(ws, "dut", "main.c"), "int main(void) {\n  return 0;\n}\n");
  extra = join(dir, "extra", "probe");
  mkdirSync(join(extra, "scripts"), { recursive: true });
  writeFileSync(
    join(extra, "SKILL.md"),
    "---\nname: probe\ndescription: Probes the installed package from inside the sandbox.\n---\nRun its scripts.\n",
  );
  writeFileSync(join(extra, "scripts", "hello.ts"), "const n: number = 7;\nconsole.log('ts helper', n);\n");
  writeFileSync(join(extra, "scripts", "script_runner.json"), JSON.stringify({ "hello.ts": "tsx" }));
  writeFileSync(
    join(extra, "scripts", "write_pkg.py"),
    "import sys\nfor path in sys.argv[1:]:\n    try:\n        open(path, 'a').write('x')\n        print('WROTE', path)\n    except OSError as e:\n        print('refused', e.errno)\n",
  );
  const home = join(dir, "home");
  mkdirSync(home);
  // Not the repo's node_modules/.bin that npx put on PATH: the installed package must find its own tools.
  const path = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry !== "" && !entry.startsWith(`${REPO}/`))
    .join(":");
  env = { ...process.env, PATH: path, HOME: home, SKILLGATE_HOME: join(home, ".skillgate"), NO_COLOR: "1" };
}, 300_000);

afterAll(() => {
  temp?.cleanup();
});

describe.sequential("skillgate under another project's node_modules", () => {
  it("its bin is the launcher inside the project's node_modules, with its dependencies beside it", () => {
    expect(realpathSync(join(project, "node_modules", ".bin", "skillgate"))).toBe(
      join(installed, "dist", "runtime", "cli", "main.js"),
    );
    expect(existsSync(join(installed, "node_modules"))).toBe(false);
    expect(existsSync(join(project, "node_modules", ".bin", "tsx"))).toBe(true);
  });

  it("init copies the bundled pack and the extra skill", () => {
    const result = skillgate("init", ws, "--extra-skill-path", extra, "--json");
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(ws, ".ucagent", "skills", "runners", "python-runner", "SKILL.md"))).toBe(true);
    expect(existsSync(join(ws, ".ucagent", "skills", "ext", "probe", "scripts", "hello.ts"))).toBe(true);
  }, 120_000);

  const call = (commands: string[][]) =>
    skillgate(
      "call",
      "RunSkillScript",
      JSON.stringify({ commands }),
      "-w",
      ws,
      "--extra-skill-path",
      extra,
      "--json",
    );

  it("runs a bundled-pack Python script sandboxed", () => {
    const result = call([["runners/python-runner", "get_temp_path.py", "--dir"]]);
    expect(result.json.isError, JSON.stringify(result.json)).toBe(false);
    const [run] = commandsOf(result.json);
    expect(run).toMatchObject({ status: "ok", sandboxed: true });
    expect(run?.output).toMatch(/^\/tmp\/skillgate-\d+\/[0-9a-f]{16}\n$/);
  }, 120_000);

  it("runs the bundled pack's .ts helpers sandboxed with the tsx of the enclosing node_modules", () => {
    const result = call([
      [
        "review/static-bug-analysis",
        "record_bug.ts",
        "--file main.c --line 2 --severity low --title 'Exit code' --description 'Always returns 0, for any input'",
      ],
      ["review/static-bug-analysis", "list_bugs.ts", ""],
    ]);
    expect(result.json.isError, JSON.stringify(result.json)).toBe(false);
    const runs = commandsOf(result.json);
    expect(runs.map((run) => [run.status, run.sandboxed])).toEqual([
      ["ok", true],
      ["ok", true],
    ]);
    expect(runs[1]?.argv[0]).toBe(join(project, "node_modules", "tsx", "dist", "cli.mjs"));
    expect(runs[1]?.output).toContain("1 bug entry in ");
  }, 120_000);

  it("runs a self-contained .ts helper of an extra skill sandboxed (the compiled fast path)", () => {
    const result = call([["ext/probe", "hello.ts", ""]]);
    expect(result.json.isError, JSON.stringify(result.json)).toBe(false);
    const [run] = commandsOf(result.json);
    expect(run).toMatchObject({ status: "ok", sandboxed: true, output: "ts helper 7\n" });
  }, 120_000);

  it("the installed package stays read-only from inside the sandbox", () => {
    const targets = [
      join(installed, "package.json"),
      join(installed, "dist", "cli", "skillgate.cjs"),
      join(project, "node_modules", "tsx", "package.json"),
    ];
    // World-writable on the host, so only the read-only bind can refuse the write (EROFS, not EACCES).
    for (const target of targets) chmodSync(target, 0o666);
    const before = targets.map(sha256);
    const result = call([["ext/probe", "write_pkg.py", targets.join(" ")]]);
    expect(result.json.isError, JSON.stringify(result.json)).toBe(false);
    const [run] = commandsOf(result.json);
    expect(run?.sandboxed).toBe(true);
    expect(run?.output).toBe("refused 30\nrefused 30\nrefused 30\n");
    expect(targets.map(sha256)).toEqual(before);
  }, 120_000);
});
