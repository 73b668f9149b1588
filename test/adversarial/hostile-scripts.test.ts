// The hostile-script suite through the tools: every script of scripts/ runs by RunSkillScript as an extra skill of an initialised workspace.
import { type ChildProcess, spawn } from "node:child_process";
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { survivors } from "../support/host-probes.js";
import {
  CASES,
  type Case,
  type Context,
  MAX_FILE_SIZE_BYTES,
  MAX_OPEN_FILES,
  MAX_PROCESSES,
  OUTPUT_BYTES,
  skillOf,
  VARIANTS,
} from "./hostile-cases.js";
import {
  type Bed,
  type Canaries,
  type HostileSkill,
  hostCanaries,
  makeBed,
  plantGit,
  record,
} from "./tool-bed.js";

const SCRIPTS = fileURLToPath(new URL("./scripts/", import.meta.url));
const POISON = ["LD_PRELOAD", "NODE_OPTIONS", "PYTHONPATH", "BASH_ENV", "http_proxy"];

/** One hostile skill holding `scripts` (read from scripts/), .ts mapped to tsx and .js to node. */
function hostileSkill(name: string, scripts: string[], metadata?: Record<string, string>): HostileSkill {
  const files = [...new Set(scripts)];
  const runners: Record<string, string> = {};
  for (const file of files) {
    if (file.endsWith(".ts")) runners[file] = "tsx";
    if (file.endsWith(".js")) runners[file] = "node";
  }
  return {
    name,
    scripts: Object.fromEntries(files.map((file) => [file, readFileSync(join(SCRIPTS, file), "utf8")])),
    runners,
    ...(metadata ? { metadata } : {}),
  };
}

/** Shell-quotes one argument for RunSkillScript's shlex split. */
const quote = (arg: string): string => `'${arg.replace(/'/g, `'"'"'`)}'`;

let main: Bed;
let homeBed: Bed;
let mainCtx: Context;
let homeCtx: Context;
let canaries: Canaries;
let before: Record<string, string>;
let hostSleeper: ChildProcess;
let servers: Server[] = [];
let connectionCount = 0;
const saved = { HOME: process.env.HOME, SKILLGATE_HOME: process.env.SKILLGATE_HOME };

function plantHome(home: string): string[] {
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY----- canary-ssh-key\n");
  writeFileSync(join(home, ".bashrc"), "# canary bashrc\n");
  writeFileSync(join(home, ".profile"), "# canary profile\n");
  writeFileSync(join(home, ".npmrc"), "//registry.npmjs.org/:_authToken=canary-npm-token\n");
  return [".ssh/id_rsa", ".bashrc", ".profile", ".npmrc"].map((file) => join(home, file));
}

/** Every copy and source of a hostile script: none may change, whatever the script writes. */
function scriptCopies(bed: Bed): string[] {
  const files: string[] = [];
  for (const root of [join(bed.session.paths.skillsDir, "ext"), bed.extra]) {
    for (const skill of readdirSync(root)) {
      const dir = join(root, skill, "scripts");
      for (const file of readdirSync(dir)) files.push(join(dir, file));
    }
  }
  return files;
}

beforeAll(async () => {
  const byVariant = (key: keyof typeof VARIANTS) =>
    CASES.filter((c) => !c.homeAsWorkspace && (c.variant ?? "small") === key).map((c) => c.script);
  const envSecret = `env-secret-${Date.now()}`;
  process.env.SKILLGATE_ADV_SECRET = envSecret;
  process.env.AWS_SECRET_ACCESS_KEY = envSecret;
  main = await makeBed({
    skills: [
      hostileSkill("hostile", [...byVariant("small"), "env_dump.sh"]),
      hostileSkill("hostile-l1", byVariant("level1")),
      hostileSkill("hostile-ts", byVariant("ts")),
      hostileSkill("hostile-ts-loop", byVariant("tsLoop")),
      hostileSkill("hostile-env", ["env_dump.sh"], {
        "skillgate-env": [...POISON, "ADV_DECLARED_VAR"].join(","),
      }),
    ],
    exec: {
      timeout_seconds: VARIANTS.small.timeoutSeconds,
      memory_mb: VARIANTS.small.memoryMb,
      output_bytes: OUTPUT_BYTES,
      max_processes: MAX_PROCESSES,
      max_file_size_mb: MAX_FILE_SIZE_BYTES / (1024 * 1024),
      max_open_files: MAX_OPEN_FILES,
      // The levels and limits of the variants come from the operator's config, as an agent meets them.
      skill_overrides: Object.fromEntries(
        Object.values(VARIANTS).map((v) => [
          `ext/hostile${v.suffix}`,
          { sandbox_level: v.level, timeout_seconds: v.timeoutSeconds, memory_mb: v.memoryMb },
        ]),
      ),
      grants: { "ext/hostile-env": { env: [...POISON, "ADV_DECLARED_VAR"] } },
    },
  });
  homeBed = await makeBed({
    skills: [
      hostileSkill(
        "hostile",
        CASES.filter((c) => c.homeAsWorkspace).map((c) => c.script),
      ),
    ],
    exec: { timeout_seconds: VARIANTS.small.timeoutSeconds, memory_mb: VARIANTS.small.memoryMb },
    workspace: (dir) => join(dir, "home"),
  });
  plantGit(main);
  writeFileSync(join(main.ws, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n");
  const homeFiles = [...plantHome(main.home), ...plantHome(homeBed.home)];
  const secretText = `canary-secret-${process.pid}-${Date.now()}`;
  const secretPath = join(main.dir, "host-secret.txt");
  writeFileSync(secretPath, `${secretText}\n`);
  // Sensitive-path masking follows the home folder of the skillgate process; its ts cache lives under it.
  process.env.HOME = main.home;
  process.env.SKILLGATE_HOME = main.env.SKILLGATE_HOME;

  hostSleeper = spawn("sleep", ["600"], { stdio: "ignore" });
  const serve = (reply: string) =>
    createServer((socket) => {
      connectionCount++;
      socket.end(reply);
    });
  const tcp = serve("host-service-secret");
  const unix = serve("unix-secret");
  const abstract = serve("abstract-secret");
  const unixPath = join(main.dir, "host.sock");
  const abstractName = `sg-sandbox-adv-hostile-${process.pid}`;
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => unix.listen(unixPath, resolve));
  await new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve));
  servers = [tcp, unix, abstract];
  const shared = {
    secretPath,
    secretText,
    envSecret,
    hostPid: hostSleeper.pid as number,
    port: (tcp.address() as { port: number }).port,
    connections: () => connectionCount,
    unixPath,
    abstractName,
  };
  mainCtx = { ...shared, bed: main, ws: main.ws, fakeHome: main.home };
  homeCtx = { ...shared, bed: homeBed, ws: homeBed.ws, fakeHome: homeBed.home };
  canaries = hostCanaries(main, [
    secretPath,
    ...homeFiles,
    join(main.ws, ".git", "hooks", "pre-commit"),
    "/etc/bash.bashrc",
    "/root/.bashrc",
    "/root/.profile",
    "/usr/bin/skillgate-evil",
    "/usr/local/bin/evil",
    "/etc/cron.d/evil",
    ...scriptCopies(main),
    ...scriptCopies(homeBed),
  ]);
  before = canaries.snapshot();
});

afterEach(async () => {
  process.env.HOME = main.home;
  delete process.env.SKILLGATE_EXACT_RUNNER;
  expect(canaries.snapshot()).toEqual(before);
  expect(await survivors(main.ws)).toEqual([]);
  expect(await survivors(homeBed.ws)).toEqual([]);
  expect(() => process.kill(mainCtx.hostPid, 0)).not.toThrow();
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  delete process.env.SKILLGATE_ADV_SECRET;
  delete process.env.AWS_SECRET_ACCESS_KEY;
  hostSleeper?.kill("SIGKILL");
  for (const server of servers) server.close();
  try {
    if (canaries) spawn("keyctl", ["unlink", canaries.keyId, "@u"], { stdio: "ignore" });
  } finally {
    main?.cleanup();
    homeBed?.cleanup();
  }
});

describe.sequential("hostile scripts through RunSkillScript are contained", () => {
  it("covers every script of scripts/ (at least 40, in Python, JS, TS and shell) at the tool layer", () => {
    const scripts = new Set(CASES.map((c) => c.script));
    expect(scripts.size).toBeGreaterThanOrEqual(40);
    for (const extension of [".py", ".js", ".ts", ".sh"])
      expect([...scripts].some((name) => name.endsWith(extension))).toBe(true);
    expect([...scripts].sort()).toEqual(readdirSync(SCRIPTS).sort());
    expect(CASES.length).toBeGreaterThanOrEqual(71);
  });

  it.each(CASES.map((c) => [`${skillOf(c)} ${c.script} (${c.why})`, c] as const))(
    "%s",
    async (_label, c: Case) => {
      const ctx = c.homeAsWorkspace ? homeCtx : mainCtx;
      const variant = VARIANTS[c.variant ?? "small"];
      process.env.HOME = ctx.fakeHome;
      if (c.exactRunner) process.env.SKILLGATE_EXACT_RUNNER = "1";
      const args = (c.args?.(ctx) ?? []).map(quote).join(" ");
      const started = Date.now();
      const result = await ctx.bed.run(skillOf(c), c.script, args);
      const elapsed = Date.now() - started;
      const run = record(result);
      const allowed = Array.isArray(c.status) ? c.status : [c.status];
      expect(allowed, `${run.status}: ${run.output.slice(0, 400)} ${run.message ?? ""}`).toContain(
        run.status,
      );
      expect(result.isError).toBe(run.status !== "ok");
      if (run.status !== "ok") expect(result.code).toBe("SCRIPT_FAILED");
      expect(run.sandboxed).toBe(variant.level === 2);
      // Level 1 as root leans on the pids cgroup (RLIMIT_NPROC binds only other users): it must have been there.
      expect(run.warnings.filter((w) => w.startsWith("process limit not enforced"))).toEqual([]);
      if (c.exactRunner) expect(run.argv[0]).toMatch(/tsx/);
      else if (c.script.endsWith(".ts")) expect(run.argv[0]).toBe(process.execPath);
      const timeoutMs = variant.timeoutSeconds * 1000;
      if (run.status === "timeout") expect(run.duration_ms).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(elapsed).toBeLessThan(timeoutMs + 5_000);
      expect(run.run_id).toMatch(/^sg-/);
      expect(await survivors(run.run_id as string)).toEqual([]);
      await c.check?.(run, ctx, result);
    },
  );
});

describe.sequential("hostile script names and skill declarations are refused before anything runs", () => {
  const scriptsDir = () => join(main.session.paths.skillsDir, "ext", "hostile", "scripts");
  const skillFolder = ".ucagent/skills/ext/hostile";
  const bareName = "fix: pass a bare filename listed under the skill's scripts/ folder";
  const named = (shown: string, why: string) =>
    `script name ${shown} for skill folder ${skillFolder} is refused: ${why}; ${bareName}`;
  it.each([
    ["../../../etc/passwd", () => named('"../../../etc/passwd"', "it contains '..'")],
    ["/etc/passwd", () => named('"/etc/passwd"', "it is an absolute path")],
    ["..\\..\\x.py", () => named('"..\\\\..\\\\x.py"', "it contains a backslash")],
    ["evil\n.py", () => named('"evil\\n.py"', "it contains control characters")],
    ["evil\u001b]0;x\u0007.py", () => named('"evil\\u001b]0;x\\u0007.py"', "it contains control characters")],
    [
      "link_out.py",
      () =>
        `script "link_out.py" resolves to ${mainCtx.secretPath}, outside ${skillFolder}/scripts; fix: scripts must be real files inside the skill's scripts/ folder, not links leading out of it`,
    ],
    [
      "hard_out.py",
      () =>
        `script "hard_out.py" at ${skillFolder}/scripts/hard_out.py has 2 hard links, so its content may be a file from outside the skill; fix: replace it with a plain copy`,
    ],
  ])("script name %j → SCRIPT_PATH_INVALID, nothing runs", async (name, reason) => {
    // Planted in the workspace copy, as an agent with a shell as the same user could (init made it read-only).
    const link = join(scriptsDir(), "link_out.py");
    const hard = join(scriptsDir(), "hard_out.py");
    const mode = statSync(scriptsDir()).mode & 0o7777;
    chmodSync(scriptsDir(), mode | 0o700);
    symlinkSync(mainCtx.secretPath, link);
    linkSync(mainCtx.secretPath, hard);
    chmodSync(scriptsDir(), mode);
    try {
      const result = await main.run("hostile", name);
      expect(result.isError).toBe(true);
      expect(result.code).toBe("SCRIPT_PATH_INVALID");
      expect(result.text).toBe(
        `Command 1 invalid: ${reason()}\nNo command was run (every command is validated before any runs).`,
      );
      expect(result.structured.commands).toBeUndefined();
    } finally {
      chmodSync(scriptsDir(), mode | 0o700);
      rmSync(link, { force: true });
      rmSync(hard, { force: true });
      chmodSync(scriptsDir(), mode);
    }
  });

  it("passes only granted, allowed variables: poisoned ones are dropped with a warning", async () => {
    const poisoned = {
      LD_PRELOAD: "/nonexistent/evil.so",
      NODE_OPTIONS: "--max-old-space-size=64",
      PYTHONPATH: "/nonexistent/evil",
      BASH_ENV: "/nonexistent/evil.sh",
      http_proxy: "http://127.0.0.1:9",
      ADV_DECLARED_VAR: "declared-value",
    };
    Object.assign(process.env, poisoned);
    let result: Awaited<ReturnType<Bed["run"]>>;
    try {
      result = await main.run("hostile-env", "env_dump.sh");
    } finally {
      for (const name of Object.keys(poisoned)) delete process.env[name];
    }
    expect(result.isError, result.text).toBe(false);
    const run = record(result);
    expect(run.output).toContain("ADV_DECLARED_VAR=declared-value\n");
    for (const name of POISON) expect(run.output).not.toContain(`${name}=`);
    const refused = (name: string, why: string) =>
      `exec.grants.ext/hostile-env.env names ${name}, which ${why}; it is not passed`;
    const loadsCode = "belongs to a family that loads code, reroutes traffic or controls skillgate";
    const changesLoading = "can change how interpreters or shells load code";
    expect(run.warnings.filter((w) => !w.startsWith("memory limit counts resident memory only"))).toEqual([
      refused("LD_PRELOAD", loadsCode),
      refused("NODE_OPTIONS", changesLoading),
      refused("PYTHONPATH", loadsCode),
      refused("BASH_ENV", changesLoading),
      refused("http_proxy", "reroutes network traffic"),
    ]);
  });
});
