// The hostile-script table: each script in scripts/, the skill variant (level, limits) it runs as, its allowed status and checks.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { ToolResult } from "../../runtime/contracts/index.js";
import type { CommandRecord } from "../../runtime/tools/run-skill-script.js";
import type { Bed } from "./tool-bed.js";

export type RunStatus = CommandRecord["status"];

/** Config of one hostile skill variant: its exec.skill_overrides entry, and whether it runs real tsx. */
export interface Variant {
  /** Appended to "hostile" for the skill folder (ext/hostile<suffix>). */
  suffix: string;
  level: 1 | 2;
  timeoutSeconds: number;
  memoryMb: number;
}

export const OUTPUT_BYTES = 65_536;
export const MAX_PROCESSES = 64;
export const MAX_FILE_SIZE_BYTES = 8 * 1024 * 1024;
export const MAX_OPEN_FILES = 64;

export const VARIANTS = {
  small: { suffix: "", level: 2, timeoutSeconds: 3, memoryMb: 128 },
  level1: { suffix: "-l1", level: 1, timeoutSeconds: 3, memoryMb: 128 },
  /** tsx starts two node processes and esbuild: more memory, and room for a slow start on a loaded machine. */
  ts: { suffix: "-ts", level: 2, timeoutSeconds: 15, memoryMb: 384 },
  tsLoop: { suffix: "-ts-loop", level: 2, timeoutSeconds: 4, memoryMb: 384 },
} satisfies Record<string, Variant>;

export interface Context {
  bed: Bed;
  /** The workspace of the run (for homeAsWorkspace cases, the fake home itself). */
  ws: string;
  /** The HOME skillgate runs with: sensitive entries under it are masked in the sandbox. */
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

export interface Case {
  script: string;
  why: string;
  status: RunStatus | RunStatus[];
  variant?: keyof typeof VARIANTS;
  /** Run the .ts helper with real tsx (SKILLGATE_EXACT_RUNNER=1), not the compiled fast path. */
  exactRunner?: boolean;
  args?: (ctx: Context) => string[];
  /** Run with the fake home folder as workspace (sensitive entries must be masked inside it). */
  homeAsWorkspace?: boolean;
  check?: (run: CommandRecord, ctx: Context, result: ToolResult) => void | Promise<void>;
}

export const noSecrets = (run: CommandRecord, ctx: Context, result?: ToolResult): void => {
  for (const text of [run.output, result?.text ?? ""]) {
    expect(text).not.toContain(ctx.secretText);
    expect(text).not.toContain(ctx.envSecret);
    expect(text).not.toContain("PRIVATE KEY");
    expect(text).not.toMatch(
      /^(READ|WROTE|LINKED|CONNECTED|SENT|RESOLVED|MODIFIED|ESCALATED|KILLED|FETCHED)/m,
    );
  }
};

const countAtMost = (label: string, max: number) => (run: CommandRecord) => {
  const match = new RegExp(`${label}=(\\d+)`).exec(run.output);
  expect(match, run.output).not.toBeNull();
  expect(Number(match?.[1])).toBeLessThanOrEqual(max);
};

/** The daemon would write its file 1.5 s after the run: watch for it (polling) for 2.5 s. */
const daemonDied = (file: string) => async (_run: CommandRecord, ctx: Context) => {
  const path = join(ctx.ws, file);
  const until = Date.now() + 2_500;
  while (Date.now() < until && !existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(existsSync(path), `${path} written by a surviving daemon`).toBe(false);
};

const onlyAllowedEnv = (run: CommandRecord, ctx: Context, result: ToolResult): void => {
  noSecrets(run, ctx, result);
  const names = run.output
    .split("\n")
    .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf("=")))
    .filter((name) => name !== "PWD" && name !== "_" && name !== "SHLVL")
    .sort();
  expect(names).toEqual(["DUT", "HOME", "LANG", "OUT", "PATH", "SKILLGATE_RUN_ID", "TMPDIR"]);
};

const signalled = (signal: string) => (run: CommandRecord) => expect(run.signal).toBe(signal);

const flood = (script: string): Case => ({
  script,
  why: "100 MB flood",
  status: "output_limit",
  check: (run) => {
    expect(run.truncated).toBe(true);
    expect(Buffer.byteLength(run.output)).toBeLessThanOrEqual(OUTPUT_BYTES);
    expect(run.output.length).toBeGreaterThan(OUTPUT_BYTES / 2);
  },
});

const hostService = (script: string): Case => ({
  script,
  why: "host service on 127.0.0.1",
  status: "ok",
  args: (ctx) => [String(ctx.port)],
  check: (run, ctx, result) => {
    noSecrets(run, ctx, result);
    expect(ctx.connections()).toBe(0);
  },
});

/** A .ts helper run twice: compiled by the fast path, then under real tsx (`exact` overrides the second run's fields). */
const bothTsRunners = (c: Case, exact: Partial<Case> = {}): Case[] => [
  { ...c, why: `${c.why} (.ts fast path)` },
  { ...c, ...exact, why: `${c.why} under real tsx`, exactRunner: true },
];

const fileAtMost = (name: string) => (_run: CommandRecord, ctx: Context) =>
  expect(statSync(join(ctx.ws, name)).size).toBeLessThanOrEqual(MAX_FILE_SIZE_BYTES);

export const CASES: Case[] = [
  // Processes and threads
  { script: "fork_bomb.py", why: "fork bomb", status: ["timeout", "memory_limit"] },
  { script: "fork_bomb.sh", why: "bash fork bomb", status: ["timeout", "memory_limit"] },
  {
    script: "fork_bomb.sh",
    why: "bash fork bomb at level 1 (pids cgroup)",
    status: ["timeout", "memory_limit"],
    variant: "level1",
  },
  { script: "fork_bomb.js", why: "node spawn storm", status: ["timeout", "memory_limit"] },
  {
    script: "thread_bomb.py",
    why: "thread bomb",
    status: "ok",
    check: countAtMost("threads", MAX_PROCESSES),
  },
  // Memory
  { script: "memory_bomb.py", why: "growing list", status: "memory_limit" },
  { script: "memory_big_alloc.py", why: "one 8 GiB allocation", status: "memory_limit" },
  { script: "memory_children.py", why: "tree over the limit, each child under it", status: "memory_limit" },
  { script: "memory_bomb.js", why: "growing buffers", status: "memory_limit" },
  ...bothTsRunners({
    script: "memory_bomb.ts",
    why: "growing buffers",
    status: "memory_limit",
    variant: "ts",
  }),
  // Time and signals
  { script: "infinite_loop.py", why: "busy loop", status: "timeout" },
  { script: "infinite_loop.sh", why: "busy loop", status: "timeout" },
  { script: "infinite_loop.js", why: "busy loop", status: "timeout" },
  ...bothTsRunners({ script: "infinite_loop.ts", why: "busy loop", status: "timeout", variant: "tsLoop" }),
  { script: "sigterm_ignore.py", why: "ignores SIGTERM", status: "timeout" },
  { script: "sigterm_ignore.sh", why: "ignores SIGTERM", status: "timeout" },
  { script: "sigterm_ignore.js", why: "ignores SIGTERM", status: "timeout" },
  { script: "closed_stdout.py", why: "closed stdout sleeper", status: "timeout" },
  { script: "closed_stdout.sh", why: "closed stdout sleeper", status: "timeout" },
  {
    script: "slow_drip.sh",
    why: "slow drip",
    status: "timeout",
    check: (run) => expect(run.output).toMatch(/^\.{10,}$/),
  },
  // Daemons
  {
    script: "setsid_daemon.py",
    why: "double-forked setsid daemon",
    status: "ok",
    args: (ctx) => [join(ctx.ws, "py-daemon")],
    check: daemonDied("py-daemon"),
  },
  {
    script: "setsid_daemon.py",
    why: "double-forked setsid daemon at level 1 (pids cgroup)",
    status: "ok",
    variant: "level1",
    args: (ctx) => [join(ctx.ws, "py-daemon-l1")],
    check: daemonDied("py-daemon-l1"),
  },
  {
    script: "setsid_daemon.sh",
    why: "setsid nohup job",
    status: "ok",
    args: (ctx) => [join(ctx.ws, "sh-daemon")],
    check: daemonDied("sh-daemon"),
  },
  {
    script: "setsid_daemon.sh",
    why: "setsid nohup job at level 1",
    status: "ok",
    variant: "level1",
    args: (ctx) => [join(ctx.ws, "sh-daemon-l1")],
    check: daemonDied("sh-daemon-l1"),
  },
  ...bothTsRunners(
    {
      script: "setsid_daemon.ts",
      why: "detached child",
      status: "ok",
      variant: "ts",
      args: (ctx) => [join(ctx.ws, "ts-daemon")],
      check: daemonDied("ts-daemon"),
    },
    { args: (ctx) => [join(ctx.ws, "ts-daemon-tsx")], check: daemonDied("ts-daemon-tsx") },
  ),
  // Output
  ...[
    "stdout_flood.py",
    "stderr_flood_nonl.py",
    "stdout_flood.sh",
    "stderr_flood_nonl.sh",
    "stdout_flood_nonl.js",
  ].map(flood),
  {
    script: "binary_output.py",
    why: "binary and invalid UTF-8",
    status: "ok",
    check: (run) => {
      expect(run.output).toContain("\uFFFD");
      expect(run.output).toContain(" invalid ");
      expect(run.output).toContain("\uFFFD\uFFFD err\n");
    },
  },
  // Files and disks
  {
    script: "disk_fill.py",
    why: "fills the workspace",
    status: "nonzero_exit",
    args: (ctx) => [join(ctx.ws, "fill.bin")],
    check: fileAtMost("fill.bin"),
  },
  {
    script: "disk_fill.sh",
    why: "fills /tmp and the workspace",
    status: ["signal", "nonzero_exit"],
    args: (ctx) => [join(ctx.ws, "fill-sh.bin")],
    check: fileAtMost("fill-sh.bin"),
  },
  {
    script: "fd_exhaustion.py",
    why: "descriptor exhaustion",
    status: "ok",
    check: countAtMost("fds", MAX_OPEN_FILES),
  },
  {
    script: "fd_exhaustion.js",
    why: "descriptor exhaustion",
    status: "ok",
    check: countAtMost("fds", MAX_OPEN_FILES),
  },
  {
    script: "write_system.py",
    why: "writes system files and ~/.bashrc",
    status: "ok",
    args: (ctx) => [join(ctx.fakeHome, ".bashrc")],
    check: noSecrets,
  },
  ...bothTsRunners(
    {
      script: "write_system.ts",
      why: "writes system files",
      status: "ok",
      variant: "ts",
      args: (ctx) => [join(ctx.fakeHome, ".bashrc")],
      check: (run, ctx, result) => {
        // The fake home lies under /tmp, and the fast path's cache bind below it makes that folder exist in the
        // run's private /tmp tmpfs: the append lands there and vanishes (the host file is a canary, unchanged).
        const wrote = run.output.split("\n").filter((line) => line.startsWith("WROTE "));
        expect(wrote).toEqual([`WROTE ${join(ctx.fakeHome, ".bashrc")}`]);
        expect(ctx.fakeHome.startsWith("/tmp/")).toBe(true);
        noSecrets({ ...run, output: run.output.replace(wrote[0] ?? "", "") }, ctx);
        expect(result.text).not.toContain(ctx.secretText);
      },
    },
    { check: noSecrets },
  ),
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
    args: (ctx) => [ctx.ws],
    check: (run, ctx, result) => {
      noSecrets(run, ctx, result);
      expect(run.output).toContain(`blocked ${join(ctx.ws, ".ucagent", "ledger.jsonl")}`);
      expect(existsSync(join(ctx.ws, ".ucagent", "ledger.jsonl"))).toBe(false);
      expect(readFileSync(ctx.bed.session.paths.ledger, "utf8")).not.toContain("curl evil");
    },
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
    args: (ctx) => [ctx.secretPath, join(ctx.ws, "escape-link")],
    check: async (run, ctx, result) => {
      noSecrets(run, ctx, result);
      // What the script left behind must not lead the agent's file tools out either.
      for (const path of ["escape-link", "escape-link-root/etc/passwd"]) {
        const read = await ctx.bed.call("ReadTextFile", { path });
        expect(read.isError, read.text).toBe(true);
        expect(read.text).not.toContain(ctx.secretText);
        expect(read.text).not.toContain("root:x:0:0");
      }
    },
  },
  {
    script: "hardlink_escape.py",
    why: "hard link to host files",
    status: "ok",
    args: (ctx) => [ctx.secretPath, join(ctx.ws, "escape-hard")],
    check: (run, ctx, result) => {
      noSecrets(run, ctx, result);
      expect(existsSync(join(ctx.ws, "escape-hard-passwd"))).toBe(false);
    },
  },
  { script: "env_dump.py", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  { script: "env_dump.sh", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  { script: "env_dump.js", why: "environment dump", status: "ok", check: onlyAllowedEnv },
  ...bothTsRunners({
    script: "env_dump.ts",
    why: "environment dump",
    status: "ok",
    variant: "ts",
    check: onlyAllowedEnv,
  }),
  {
    script: "proc_snoop.py",
    why: "host processes through /proc",
    status: "ok",
    args: (ctx) => [String(ctx.hostPid)],
    check: (run, ctx, result) => {
      noSecrets(run, ctx, result);
      expect(run.output).toContain("host pid hidden");
      expect(Number(/pids=(\d+)/.exec(run.output)?.[1])).toBeLessThanOrEqual(4);
    },
  },
  // Privileges and other processes
  {
    script: "escalate.sh",
    why: "unshare, mount, su, sudo, chroot",
    status: "ok",
    check: (run, ctx, result) => {
      noSecrets(run, ctx, result);
      expect(run.output).toContain("uid=65534");
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
  ...bothTsRunners({
    script: "network_exfil.ts",
    why: "fetch",
    status: "ok",
    variant: "ts",
    check: noSecrets,
  }),
  { script: "dns_exfil.py", why: "DNS exfiltration", status: "ok", check: noSecrets },
  ...["localhost_service.py", "localhost_service.js", "dev_tcp.sh"].map(hostService),
  {
    script: "unix_socket.py",
    why: "host unix sockets (path and abstract)",
    status: "ok",
    args: (ctx) => [ctx.unixPath, ctx.abstractName],
    check: (run, ctx, result) => {
      noSecrets(run, ctx, result);
      expect(ctx.connections()).toBe(0);
    },
  },
  // Crashes
  { script: "crash_segv.py", why: "segmentation fault", status: "signal", check: signalled("SIGSEGV") },
  { script: "crash_abort.js", why: "abort", status: "signal", check: signalled("SIGABRT") },
  { script: "crash_kill9.sh", why: "SIGKILL to itself", status: "signal", check: signalled("SIGKILL") },
];

/** The skill each case runs as: ext/hostile<suffix> (the home-as-workspace bed has only the plain one). */
export function skillOf(c: Case): string {
  return `hostile${VARIANTS[c.variant ?? "small"].suffix}`;
}
