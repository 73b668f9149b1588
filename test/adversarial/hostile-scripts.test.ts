// The adversarial suite: hostile Python, JS, TS and shell scripts run for real; each must be contained.
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExecSchema } from "../../runtime/config/schema.js";
import { checkScriptPath, runPlanFor, runScript } from "../../runtime/exec/index.js";
import type { RunLimits, RunRequest, RunResult, RunStatus } from "../../runtime/exec/types.js";
import { type Harness, makeHarness, SMALL_LIMITS, sha256, survivors } from "../exec/harness.js";

const SCRIPTS = fileURLToPath(new URL("./scripts/", import.meta.url));
const MIB = 1024 * 1024;
/** tsx starts two node processes and esbuild: more memory, and room for a slow start on a loaded CI machine. */
const TS_LIMITS: Partial<RunLimits> = { memoryBytes: 384 * MIB, timeoutMs: 15_000 };

interface Context {
  h: Harness;
  fakeHome: string;
  secretPath: string;
  secretText: string;
  envSecret: string;
  hostPid: number;
  port: number;
  connections: () => number;
  unixPath: string;
  abstractName: string;
}

interface Case {
  script: string;
  why: string;
  status: RunStatus | RunStatus[];
  level?: 1 | 2;
  args?: (ctx: Context) => string[];
  limits?: Partial<RunLimits>;
  /** Run with the fake home folder as workspace (sensitive entries must be masked inside it). */
  homeAsWorkspace?: boolean;
  check?: (result: RunResult, ctx: Context) => void | Promise<void>;
}

const noSecrets = (result: RunResult, ctx: Context): void => {
  expect(result.output).not.toContain(ctx.secretText);
  expect(result.output).not.toContain(ctx.envSecret);
  expect(result.output).not.toContain("PRIVATE KEY");
  expect(result.output).not.toMatch(
    /^(READ|WROTE|LINKED|CONNECTED|SENT|RESOLVED|MODIFIED|ESCALATED|KILLED|FETCHED)/m,
  );
};
const countAtMost = (label: string, max: number) => (result: RunResult) => {
  const match = new RegExp(`${label}=(\\d+)`).exec(result.output);
  expect(match, result.output).not.toBeNull();
  expect(Number(match?.[1])).toBeLessThanOrEqual(max);
};
const daemonDied = (file: string) => async (_result: RunResult, ctx: Context) => {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(existsSync(join(ctx.h.ws, file))).toBe(false);
};
const onlyAllowedEnv = (result: RunResult, ctx: Context): void => {
  noSecrets(result, ctx);
  const names = result.stdout
    .split("\n")
    .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")))
    .filter((name) => name !== "PWD" && name !== "_" && name !== "SHLVL")
    .sort();
  expect(names).toEqual(["DUT", "HOME", "LANG", "OUT", "PATH", "SKILLGATE_RUN_ID", "TMPDIR"]);
};

const CASES: Case[] = [
  // Processes and threads
  { script: "fork_bomb.py", why: "fork bomb", status: ["timeout", "memory_limit"] },
  { script: "fork_bomb.sh", why: "bash fork bomb", status: ["timeout", "memory_limit"] },
  {
    script: "fork_bomb.sh",
    why: "bash fork bomb at level 1 (pids cgroup)",
    status: ["timeout", "memory_limit"],
    level: 1,
  },
  { script: "fork_bomb.js", why: "node spawn storm", status: ["timeout", "memory_limit"] },
  {
    script: "thread_bomb.py",
    why: "thread bomb",
    status: "ok",
    check: countAtMost("threads", SMALL_LIMITS.maxProcesses),
  },
  // Memory
  { script: "memory_bomb.py", why: "growing list", status: "memory_limit" },
  { script: "memory_big_alloc.py", why: "one 8 GiB allocation", status: "memory_limit" },
  { script: "memory_children.py", why: "tree over the limit, each child under it", status: "memory_limit" },
  { script: "memory_bomb.js", why: "growing buffers", status: "memory_limit" },
  { script: "memory_bomb.ts", why: "growing buffers under tsx", status: "memory_limit", limits: TS_LIMITS },
  // Time and signals
  { script: "infinite_loop.py", why: "busy loop", status: "timeout" },
  { script: "infinite_loop.sh", why: "busy loop", status: "timeout" },
  { script: "infinite_loop.js", why: "busy loop", status: "timeout" },
  {
    script: "infinite_loop.ts",
    why: "busy loop under tsx",
    status: "timeout",
    limits: { ...TS_LIMITS, timeoutMs: 4_000 },
  },
  { script: "sigterm_ignore.py", why: "ignores SIGTERM", status: "timeout" },
  { script: "sigterm_ignore.sh", why: "ignores SIGTERM", status: "timeout" },
  { script: "sigterm_ignore.js", why: "ignores SIGTERM", status: "timeout" },
  { script: "closed_stdout.py", why: "closed stdout sleeper", status: "timeout" },
  { script: "closed_stdout.sh", why: "closed stdout sleeper", status: "timeout" },
  {
    script: "slow_drip.sh",
    why: "slow drip",
    status: "timeout",
    check: (result) => expect(result.output).toMatch(/^\.{10,}$/),
  },
  // Daemons
  {
    script: "setsid_daemon.py",
    why: "double-forked setsid daemon",
    status: "ok",
    args: (ctx) => [join(ctx.h.ws, "py-daemon")],
    check: daemonDied("py-daemon"),
  },
  {
    script: "setsid_daemon.py",
    why: "double-forked setsid daemon at level 1 (pids cgroup)",
    status: "ok",
    level: 1,
    args: (ctx) => [join(ctx.h.ws, "py-daemon-l1")],
    check: daemonDied("py-daemon-l1"),
  },
  {
    script: "setsid_daemon.sh",
    why: "setsid nohup job",
    status: "ok",
    args: (ctx) => [join(ctx.h.ws, "sh-daemon")],
    check: daemonDied("sh-daemon"),
  },
  {
    script: "setsid_daemon.ts",
    why: "detached child under tsx",
    status: "ok",
    limits: TS_LIMITS,
    args: (ctx) => [join(ctx.h.ws, "ts-daemon")],
    check: daemonDied("ts-daemon"),
  },
  // Output
  ...([
    "stdout_flood.py",
    "stderr_flood_nonl.py",
    "stdout_flood.sh",
    "stderr_flood_nonl.sh",
    "stdout_flood_nonl.js",
  ].map(
    (script): Case => ({
      script,
      why: "100 MB flood",
      status: "output_limit",
      check: (result) => {
        expect(result.truncated).toBe(true);
        expect(Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr)).toBeLessThanOrEqual(
          SMALL_LIMITS.outputBytes,
        );
        expect(result.output.length).toBeGreaterThan(SMALL_LIMITS.outputBytes / 2);
      },
    }),
  ) as Case[]),
  {
    script: "binary_output.py",
    why: "binary and invalid UTF-8",
    status: "ok",
    check: (result) => {
      expect(result.stdout).toContain("\uFFFD");
      expect(result.stdout).toContain(" invalid ");
      expect(result.stderr).toBe("\uFFFD\uFFFD err\n");
    },
  },
  // Files and disks
  {
    script: "disk_fill.py",
    why: "fills the workspace",
    status: "nonzero_exit",
    args: (ctx) => [join(ctx.h.ws, "fill.bin")],
    check: (_result, ctx) =>
      expect(statSync(join(ctx.h.ws, "fill.bin")).size).toBeLessThanOrEqual(SMALL_LIMITS.maxFileSizeBytes),
  },
  {
    script: "disk_fill.sh",
    why: "fills /tmp and the workspace",
    status: ["signal", "nonzero_exit"],
    args: (ctx) => [join(ctx.h.ws, "fill-sh.bin")],
    check: (_result, ctx) =>
      expect(statSync(join(ctx.h.ws, "fill-sh.bin")).size).toBeLessThanOrEqual(SMALL_LIMITS.maxFileSizeBytes),
  },
  {
    script: "fd_exhaustion.py",
    why: "descriptor exhaustion",
    status: "ok",
    check: countAtMost("fds", SMALL_LIMITS.maxOpenFiles),
  },
  {
    script: "fd_exhaustion.js",
    why: "descriptor exhaustion",
    status: "ok",
    check: countAtMost("fds", SMALL_LIMITS.maxOpenFiles),
  },
  {
    script: "write_system.py",
    why: "writes system files and ~/.bashrc",
    status: "ok",
    args: (ctx) => [join(ctx.fakeHome, ".bashrc")],
    check: noSecrets,
  },
  {
    script: "write_system.ts",
    why: "writes system files under tsx",
    status: "ok",
    limits: TS_LIMITS,
    args: (ctx) => [join(ctx.fakeHome, ".bashrc")],
    check: noSecrets,
  },
  {
    script: "write_bashrc.sh",
    why: "appends to shell rc files",
    status: "ok",
    args: (ctx) => [join(ctx.fakeHome, ".bashrc"), join(ctx.fakeHome, ".profile")],
    check: noSecrets,
  },
  {
    script: "write_bashrc.sh",
    why: "appends to rc files when the workspace is the home folder",
    status: "ok",
    homeAsWorkspace: true,
    args: (ctx) => [join(ctx.fakeHome, ".bashrc"), join(ctx.fakeHome, ".profile")],
    check: noSecrets,
  },
  {
    script: "git_hooks.sh",
    why: "plants git hooks and forges the ledger",
    status: "ok",
    args: (ctx) => [ctx.h.ws],
    check: noSecrets,
  },
  { script: "self_modify.py", why: "rewrites itself", status: "ok", check: noSecrets },
  { script: "self_modify.js", why: "rewrites itself", status: "ok", check: noSecrets },
  // Secrets
  {
    script: "read_secrets.py",
    why: "reads a canary secret and ~/.ssh",
    status: "ok",
    args: (ctx) => [ctx.secretPath, join(ctx.fakeHome, ".ssh", "id_rsa")],
    check: noSecrets,
  },
  {
    script: "read_secrets.py",
    why: "reads ~/.ssh when the workspace is the home folder",
    status: "ok",
    homeAsWorkspace: true,
    args: (ctx) => [
      join(ctx.fakeHome, ".ssh", "id_rsa"),
      join(ctx.fakeHome, ".bashrc"),
      join(ctx.fakeHome, ".npmrc"),
    ],
    check: noSecrets,
  },
  {
    script: "read_secrets.js",
    why: "reads a canary secret",
    status: "ok",
    args: (ctx) => [ctx.secretPath],
    check: noSecrets,
  },
  {
    script: "symlink_escape.py",
    why: "symlink to a host secret",
    status: "ok",
    args: (ctx) => [ctx.secretPath, join(ctx.h.ws, "escape-link")],
    check: noSecrets,
  },
  {
    script: "hardlink_escape.py",
    why: "hard link to host files",
    status: "ok",
    args: (ctx) => [ctx.secretPath, join(ctx.h.ws, "escape-hard")],
    check: (result, ctx) => {
      noSecrets(result, ctx);
      expect(existsSync(join(ctx.h.ws, "escape-hard-passwd"))).toBe(false);
    },
  },
  { script: "env_dump.py", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  { script: "env_dump.sh", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  { script: "env_dump.js", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  {
    script: "env_dump.ts",
    why: "environment dump under tsx",
    status: "ok",
    limits: TS_LIMITS,
    check: onlyAllowedEnv,
  },
  {
    script: "proc_snoop.py",
    why: "host processes through /proc",
    status: "ok",
    args: (ctx) => [String(ctx.hostPid)],
    check: (result, ctx) => {
      noSecrets(result, ctx);
      expect(result.output).toContain("host pid hidden");
      expect(Number(/pids=(\d+)/.exec(result.output)?.[1])).toBeLessThanOrEqual(4);
    },
  },
  // Privileges and other processes
  {
    script: "escalate.sh",
    why: "unshare, mount, su, sudo, chroot",
    status: "ok",
    check: (result, ctx) => {
      noSecrets(result, ctx);
      expect(result.output).toContain("uid=65534");
    },
  },
  {
    script: "host_pid_kill.py",
    why: "kills a host pid and -1",
    status: "ok",
    args: (ctx) => [String(ctx.hostPid)],
    check: noSecrets,
  },
  {
    script: "kill_host.sh",
    why: "kills a host pid and -1",
    status: ["ok", "signal"],
    args: (ctx) => [String(ctx.hostPid)],
    check: noSecrets,
  },
  // Network
  { script: "network_exfil.py", why: "internet by IP", status: "ok", check: noSecrets },
  { script: "network_exfil.ts", why: "fetch under tsx", status: "ok", limits: TS_LIMITS, check: noSecrets },
  { script: "dns_exfil.py", why: "DNS exfiltration", status: "ok", check: noSecrets },
  ...(["localhost_service.py", "localhost_service.js", "dev_tcp.sh"].map(
    (script): Case => ({
      script,
      why: "host service on 127.0.0.1",
      status: "ok",
      args: (ctx) => [String(ctx.port)],
      check: (result, ctx) => {
        noSecrets(result, ctx);
        expect(ctx.connections()).toBe(0);
      },
    }),
  ) as Case[]),
  {
    script: "unix_socket.py",
    why: "host unix sockets (path and abstract)",
    status: "ok",
    args: (ctx) => [ctx.unixPath, ctx.abstractName],
    check: (result, ctx) => {
      noSecrets(result, ctx);
      expect(ctx.connections()).toBe(0);
    },
  },
  // Crashes
  {
    script: "crash_segv.py",
    why: "segmentation fault",
    status: "signal",
    check: (r) => expect(r.signal).toBe("SIGSEGV"),
  },
  {
    script: "crash_abort.js",
    why: "abort",
    status: "signal",
    check: (r) => expect(r.signal).toBe("SIGABRT"),
  },
  {
    script: "crash_kill9.sh",
    why: "SIGKILL to itself",
    status: "signal",
    check: (r) => expect(r.signal).toBe("SIGKILL"),
  },
];

let ctx: Context;
let hostSleeper: ChildProcess;
let servers: Server[] = [];
let connectionCount = 0;
let canaries: Map<string, string>;
const savedHome = process.env.HOME;

function watchedFiles(c: Context): string[] {
  return [
    c.secretPath,
    join(c.fakeHome, ".bashrc"),
    join(c.fakeHome, ".profile"),
    join(c.fakeHome, ".npmrc"),
    join(c.fakeHome, ".ssh", "id_rsa"),
    join(c.h.ws, ".git", "config"),
    join(c.h.ws, ".git", "hooks", "pre-commit"),
    join(c.h.ws, ".ucagent", "ledger.jsonl"),
    "/etc/passwd",
    "/etc/hosts",
    "/etc/bash.bashrc",
    "/root/.bashrc",
    "/root/.profile",
    "/usr/bin/skillgate-evil",
    "/usr/local/bin/evil",
    "/etc/cron.d/evil",
    ...readdirSync(c.h.scriptsDir).map((name) => join(c.h.scriptsDir, name)),
  ];
}

function snapshot(c: Context): Map<string, string> {
  const hashes = new Map(watchedFiles(c).map((file) => [file, sha256(file)]));
  hashes.set("hooks-listing", readdirSync(join(c.h.ws, ".git", "hooks")).join(","));
  return hashes;
}

beforeAll(async () => {
  const h = makeHarness("skillgate-adversarial-");
  for (const name of readdirSync(SCRIPTS)) h.copyScript(join(SCRIPTS, name));
  const fakeHome = join(h.root, "home");
  mkdirSync(join(fakeHome, ".ssh"), { recursive: true });
  writeFileSync(join(fakeHome, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY----- canary-ssh-key\n");
  writeFileSync(join(fakeHome, ".bashrc"), "# canary bashrc\n");
  writeFileSync(join(fakeHome, ".profile"), "# canary profile\n");
  writeFileSync(join(fakeHome, ".npmrc"), "//registry.npmjs.org/:_authToken=canary-npm-token\n");
  const secretText = `canary-secret-${process.pid}-${Date.now()}`;
  const secretPath = join(h.root, "host-secret.txt");
  writeFileSync(secretPath, `${secretText}\n`);
  mkdirSync(join(h.ws, ".git", "hooks"), { recursive: true });
  writeFileSync(join(h.ws, ".git", "config"), "[core]\n\tbare = false\n");
  writeFileSync(join(h.ws, ".git", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n");
  writeFileSync(join(h.ws, ".ucagent", "ledger.jsonl"), '{"seq":1}\n');
  const envSecret = `env-secret-${Date.now()}`;
  process.env.SKILLGATE_ADV_SECRET = envSecret;
  process.env.AWS_SECRET_ACCESS_KEY = envSecret;
  // Sensitive-path masking follows the home folder of the skillgate process.
  process.env.HOME = fakeHome;

  hostSleeper = spawn("sleep", ["600"], { stdio: "ignore" });
  const tcp = createServer((socket) => {
    connectionCount++;
    socket.end("host-service-secret");
  });
  const unixPath = join(h.root, "host.sock");
  const abstractName = `skillgate-adv-${process.pid}`;
  const unix = createServer((socket) => {
    connectionCount++;
    socket.end("unix-secret");
  });
  const abstract = createServer((socket) => {
    connectionCount++;
    socket.end("abstract-secret");
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => unix.listen(unixPath, resolve));
  await new Promise<void>((resolve) => abstract.listen(`\0${abstractName}`, resolve));
  servers = [tcp, unix, abstract];
  ctx = {
    h,
    fakeHome,
    secretPath,
    secretText,
    envSecret,
    hostPid: hostSleeper.pid as number,
    port: (tcp.address() as { port: number }).port,
    connections: () => connectionCount,
    unixPath,
    abstractName,
  };
  canaries = snapshot(ctx);
});

afterEach(() => {
  expect(snapshot(ctx)).toEqual(canaries);
  expect(() => process.kill(ctx.hostPid, 0)).not.toThrow();
});

afterAll(() => {
  process.env.HOME = savedHome;
  delete process.env.SKILLGATE_ADV_SECRET;
  delete process.env.AWS_SECRET_ACCESS_KEY;
  hostSleeper?.kill("SIGKILL");
  for (const server of servers) server.close();
  ctx?.h.cleanup();
});

describe.sequential("hostile scripts are contained", () => {
  it("covers at least 40 hostile scripts in Python, JS, TS and shell", () => {
    const scripts = new Set(CASES.map((c) => c.script));
    expect(scripts.size).toBeGreaterThanOrEqual(40);
    for (const extension of [".py", ".js", ".ts", ".sh"]) {
      expect(
        [...scripts].some((name) => name.endsWith(extension)),
        extension,
      ).toBe(true);
    }
    expect([...scripts].sort()).toEqual(readdirSync(SCRIPTS).sort());
  });

  it.each(CASES.map((c) => [`${c.script} (${c.why})`, c] as const))("%s", async (_label, c) => {
    const limits = { ...SMALL_LIMITS, ...c.limits };
    const workspace = c.homeAsWorkspace ? ctx.fakeHome : ctx.h.ws;
    const req: RunRequest = await ctx.h.request(c.script, {
      args: c.args?.(ctx) ?? [],
      limits,
      sandboxLevel: c.level ?? 2,
      cwd: workspace,
      writablePaths: [workspace],
      env: { DUT: join(workspace, "dut"), OUT: join(workspace, "out") },
    });
    const started = Date.now();
    const result = await runScript(req);
    const elapsed = Date.now() - started;
    const allowed = Array.isArray(c.status) ? c.status : [c.status];
    expect(allowed, `${result.status}: ${result.output.slice(0, 400)} ${result.message ?? ""}`).toContain(
      result.status,
    );
    expect(result.sandboxed).toBe((c.level ?? 2) === 2);
    if (result.status === "timeout") expect(result.durationMs).toBeGreaterThanOrEqual(limits.timeoutMs - 50);
    expect(elapsed).toBeLessThan(limits.timeoutMs + 5_000);
    expect(await survivors(result.runId as string)).toEqual([]);
    await c.check?.(result, ctx);
  });
});

describe.sequential("hostile script names and skill declarations are refused before anything runs", () => {
  it.each([
    ["../../../etc/passwd", "SCRIPT_PATH_INVALID"],
    ["/etc/passwd", "SCRIPT_PATH_INVALID"],
    ["..\\..\\x.py", "SCRIPT_PATH_INVALID"],
    ["evil\n.py", "SCRIPT_PATH_INVALID"],
    ["evil\u001b]0;x\u0007.py", "SCRIPT_PATH_INVALID"],
    ["link_out.py", "SCRIPT_PATH_INVALID"],
    ["hard_out.py", "SCRIPT_PATH_INVALID"],
  ])("script name %j → %s", async (name, code) => {
    const link = join(ctx.h.scriptsDir, "link_out.py");
    const hard = join(ctx.h.scriptsDir, "hard_out.py");
    if (!existsSync(link)) symlinkSync(ctx.secretPath, link);
    if (!existsSync(hard)) linkSync(ctx.secretPath, hard);
    try {
      await expect(checkScriptPath(ctx.h.skillDir, name)).rejects.toMatchObject({ code });
    } finally {
      rmSync(link, { force: true });
      rmSync(hard, { force: true });
    }
  });

  it("drops poisoned variables declared in skill metadata", async () => {
    const plan = runPlanFor(
      ExecSchema.parse({
        grants: {
          "tests/hostile": {
            env: ["LD_PRELOAD", "NODE_OPTIONS", "PYTHONPATH", "BASH_ENV", "http_proxy", "ADV_DECLARED_VAR"],
          },
        },
      }),
      {
        id: "tests/hostile",
        metadata: {
          "skillgate-env": "LD_PRELOAD,NODE_OPTIONS,PYTHONPATH,BASH_ENV,http_proxy,ADV_DECLARED_VAR",
        },
      },
      {
        ...process.env,
        LD_PRELOAD: "/tmp/evil.so",
        NODE_OPTIONS: "--require /tmp/evil.js",
        BASH_ENV: "/tmp/evil.sh",
        ADV_DECLARED_VAR: "declared-value",
      },
    );
    expect(plan.envNames).toEqual(["ADV_DECLARED_VAR"]);
    expect(plan.warnings).toHaveLength(5);
    const req = await ctx.h.request("env_dump.sh", {
      env: { DUT: "d", OUT: "o", ...plan.extraEnv, LD_PRELOAD: "/tmp/evil.so", BASH_ENV: "/tmp/evil.sh" },
    });
    const result = await runScript(req);
    expect(result.status).toBe("ok");
    expect(result.output).toContain("ADV_DECLARED_VAR=declared-value\n");
    expect(result.output).not.toContain("LD_PRELOAD");
    expect(result.output).not.toContain("BASH_ENV");
    expect(result.warnings.filter((w) => !w.startsWith("memory limit counts resident memory only"))).toEqual([
      "environment variables not passed to the script (not allowed): BASH_ENV, LD_PRELOAD",
    ]);
  });
});
