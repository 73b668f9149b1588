// runScript with real processes and real bubblewrap: argv/env/cwd, statuses, limits, level 3, unavailable sandbox.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { homedir, networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecSchema } from "../../runtime/config/schema.js";
import { resetUnsandboxedWarning, runPlanFor, runScript } from "../../runtime/exec/index.js";
import { type Harness, makeHarness, SMALL_LIMITS, survivors } from "./harness.js";

let h: Harness;

const SHOW_ENV = `import json, os, sys
print(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ), "uid": os.getuid(),
  "stdin": sys.stdin.read() if sys.stdin else None}))
`;

/** Prints the pids cgroup the script itself is in (cgroup v1 pids line, else v2's unified one) and its pids.max. */
const PIDS_CGROUP = `import json
lines = [l.split(":", 2) for l in open("/proc/self/cgroup").read().splitlines()]
v1 = [l for l in lines if "pids" in l[1].split(",")]
path = (v1 or [l for l in lines if l[0] == "0"])[0][2]
base = "/sys/fs/cgroup/pids" if v1 else "/sys/fs/cgroup"
try:
    limit = open(base + path + "/pids.max").read().strip()
except OSError as e:
    limit = "unreadable: " + str(e)
print(json.dumps({"path": path, "max": limit}))
`;

beforeAll(() => {
  h = makeHarness();
  h.addScript("show_env.py", SHOW_ENV);
  h.addScript("exit3.sh", "echo before; exit 3\n");
  h.addScript("segv.py", "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n");
  h.addScript("sleep.sh", "sleep 30\n");
  h.addScript("flood.py", "import sys\nsys.stdout.write('0123456789' * 100000)\n");
  h.addScript("mem.py", "a = []\nwhile True:\n    a.append(bytearray(1 << 20))\n");
  h.addScript("hello.ts", "const n: number = 42;\nconsole.log('ts', n, process.argv.slice(2).join(','));\n");
  h.addScript("hello.js", "console.log('js', process.env.HOME);\n");
  h.addScript("write.sh", 'echo x > "$1" && echo wrote "$1"\n');
  h.addScript(
    "connect.py",
    "import socket, sys\ns = socket.create_connection((sys.argv[2], int(sys.argv[1])), timeout=2)\nprint('connected', s.recv(10).decode())\n",
  );
  mkdirSync(join(h.ws, ".git", "hooks"), { recursive: true });
  writeFileSync(join(h.ws, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho hook\n");
});
afterAll(() => h.cleanup());

describe.sequential("runScript", () => {
  it.each([2, 1] as const)(
    "level %i: the script sees argv, cwd, the allow-listed env and a closed stdin",
    async (level) => {
      const req = await h.request("show_env.py", {
        args: ["a b", "$HOME", "|", ">x", "ünï"],
        sandboxLevel: level,
        env: {
          DUT: "/dut",
          OUT: h.out,
          API_TOKEN: "tok",
          LD_PRELOAD: "/evil.so",
          NODE_OPTIONS: "--require x",
        },
      });
      const result = await runScript(req);
      expect(result.status).toBe("ok");
      expect(result.argv).toEqual([req.runner, req.scriptPath, "a b", "$HOME", "|", ">x", "ünï"]);
      const seen = JSON.parse(result.stdout) as {
        argv: string[];
        cwd: string;
        env: Record<string, string>;
        uid: number;
        stdin: string;
      };
      expect(seen.argv).toEqual(["a b", "$HOME", "|", ">x", "ünï"]);
      expect(seen.cwd).toBe(h.ws);
      expect(seen.stdin).toBe("");
      const names = Object.keys(seen.env)
        .filter((name) => name !== "PWD" && name !== "LC_CTYPE")
        .sort();
      expect(names).toEqual([
        "API_TOKEN",
        "DUT",
        "HOME",
        "LANG",
        "OUT",
        "PATH",
        "SKILLGATE_RUN_ID",
        "TMPDIR",
      ]);
      expect(seen.env.SKILLGATE_RUN_ID).toBe(result.runId);
      expect(seen.env.DUT).toBe("/dut");
      expect(seen.env.HOME).not.toBe(homedir());
      expect(result.warnings).toEqual([
        "environment variables not passed to the script (not allowed): LD_PRELOAD, NODE_OPTIONS",
      ]);
      expect(result.sandboxed).toBe(level === 2);
      if (level === 2) expect(seen.uid).toBe(65534);
      expect(result.exitCode).toBe(0);
      expect(result.peakMemoryBytes).toBeGreaterThan(0);
    },
  );

  it.each([2, 1] as const)("level %i: reports a non-zero exit and a crash by signal", async (level) => {
    const exit = await runScript(await h.request("exit3.sh", { sandboxLevel: level }));
    expect(exit).toMatchObject({ status: "nonzero_exit", exitCode: 3, signal: null, output: "before\n" });
    const crash = await runScript(await h.request("segv.py", { sandboxLevel: level }));
    expect(crash).toMatchObject({ status: "signal", exitCode: null, signal: "SIGSEGV", truncated: false });
  });

  it.each([2, 1] as const)("level %i: a timeout kills the tree", async (level) => {
    const req = await h.request("sleep.sh", {
      sandboxLevel: level,
      limits: { ...SMALL_LIMITS, timeoutMs: 700 },
    });
    const result = await runScript(req);
    expect(result).toMatchObject({ status: "timeout", timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(result.message).toBe(
      "SCRIPT_FAILED: script 'sleep.sh' exceeded the 0.7 s time limit and was killed with its process tree; fix: make it faster or raise exec.timeout_seconds (capped by exec.max_timeout_seconds)",
    );
    expect(result.durationMs).toBeGreaterThanOrEqual(650);
    expect(await survivors(result.runId as string)).toEqual([]);
  });

  it.each([2, 1] as const)(
    "level %i: a process that cannot be started is spawn_failed with the errno and the path, not nonzero_exit",
    async (level) => {
      const gone = join(h.root, "no-such-folder");
      const req = await h.request("exit3.sh", { sandboxLevel: level, cwd: gone });
      const result = await runScript(req);
      const path = result.outcome.status === "spawn_failed" ? result.outcome.path : "";
      expect(result).toMatchObject({ status: "spawn_failed", code: "SCRIPT_SPAWN_FAILED", exitCode: null });
      expect(result.message).toBe(
        `SCRIPT_SPAWN_FAILED: script 'exit3.sh' could not be started: spawning ${path} in ${gone} failed with ENOENT; fix: check that ${path} exists and is executable and that the folder ${gone} exists`,
      );
      expect(path.startsWith("/")).toBe(true);
    },
  );

  it("level 1 births the child in its pids cgroup and puts skillgate's own thread back", async () => {
    // Needs root and a pids controller: without them there is no cgroup to be born in, and the test fails.
    const ownCgroup = () => readFileSync(`/proc/self/task/${process.pid}/cgroup`, "utf8");
    const before = ownCgroup();
    h.addScript("pids_cgroup.py", PIDS_CGROUP);
    const result = await runScript(await h.request("pids_cgroup.py", { sandboxLevel: 1 }));
    expect(result.status, result.output).toBe("ok");
    const seen = JSON.parse(result.stdout) as { path: string; max: string };
    expect(
      seen.path,
      `the script ran outside a pids cgroup of its own (uid ${process.getuid?.()}): level 1's pids cgroup needs root and the pids controller; run this test as root`,
    ).toBe(`/skillgate/${result.runId}`);
    expect(seen.max).toBe(String(SMALL_LIMITS.maxProcesses));
    expect(ownCgroup()).toBe(before);
  });

  it("says so when root has no pids cgroup for the process limit", async () => {
    const result = await runScript(await h.request("exit3.sh"), { cgroupRoot: join(h.root, "no-cgroup") });
    expect(result.status).toBe("nonzero_exit");
    // Only root needs the cgroup (RLIMIT_NPROC binds everyone else), so only root is warned.
    const expected = [
      `process limit not enforced: running as root (RLIMIT_NPROC does not apply) and no pids cgroup controller under ${join(h.root, "no-cgroup")}; fix: run skillgate as a normal user or give it a pids cgroup controller`,
    ];
    const memory =
      "memory limit counts resident memory only (no memory cgroup: skillgate is not root or the controller is missing), so tmpfs files and memfds are not counted; fix: run skillgate as root with the memory controller for a full limit";
    expect(result.warnings).toEqual(process.getuid?.() === 0 ? [...expected, memory] : [memory]);
  });

  it("caps combined output in bytes, keeps the head and says so", async () => {
    const result = await runScript(
      await h.request("flood.py", { limits: { ...SMALL_LIMITS, outputBytes: 1000 } }),
    );
    expect(result.status).toBe("output_limit");
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.output)).toBe(1000);
    expect(result.output).toBe("0123456789".repeat(100));
    expect(result.message).toBe(
      "SCRIPT_FAILED: script 'flood.py' wrote more than 1000 bytes to stdout+stderr and was killed; the output kept is the first 1000 bytes; fix: write large results to a file under OUT or raise exec.output_bytes",
    );
  });

  it("kills a tree over the memory limit", async () => {
    const result = await runScript(await h.request("mem.py"));
    expect(result.status).toBe("memory_limit");
    expect(result.peakMemoryBytes).toBeGreaterThan(100 * 1024 * 1024);
    expect(result.message).toBe(
      "SCRIPT_FAILED: script 'mem.py' exceeded the memory limit of 128 MiB; fix: use less memory or raise exec.memory_mb for this skill",
    );
  });

  it("runs TypeScript through tsx and JavaScript through node inside the sandbox", async () => {
    const ts = await runScript(
      await h.request("hello.ts", {
        args: ["p", "q"],
        limits: { ...SMALL_LIMITS, memoryBytes: 512 * 1024 * 1024, timeoutMs: 20_000 },
      }),
    );
    expect(ts).toMatchObject({ status: "ok", stdout: "ts 42 p,q\n", sandboxed: true });
    const js = await runScript(await h.request("hello.js"));
    expect(js).toMatchObject({ status: "ok", stdout: "js /tmp/home\n" });
  });

  it("makes the workspace writable, or only OUT when asked, and never .git/hooks or skillgate state", async () => {
    const inWs = await runScript(await h.request("write.sh", { args: [join(h.ws, "a.txt")] }));
    expect(inWs.status).toBe("ok");
    expect(readFileSync(join(h.ws, "a.txt"), "utf8")).toBe("x\n");
    const onlyOut = await h.request("write.sh", { args: [join(h.ws, "b.txt")], writablePaths: [h.out] });
    expect((await runScript(onlyOut)).status).toBe("nonzero_exit");
    expect(existsSync(join(h.ws, "b.txt"))).toBe(false);
    const inOut = await runScript({ ...onlyOut, args: [join(h.out, "c.txt")] });
    expect(inOut.status, inOut.output).toBe("ok");
    expect(existsSync(join(h.out, "c.txt"))).toBe(true);
    for (const target of [
      join(h.ws, ".git", "hooks", "post-checkout"),
      join(h.ws, ".ucagent", "x"),
      join(h.skillDir, "x"),
    ]) {
      const result = await runScript(await h.request("write.sh", { args: [target] }));
      expect(result.status, target).toBe("nonzero_exit");
      expect(existsSync(target), target).toBe(false);
    }
  });

  it("lets a script call uv and bun by name, with their caches persisting under skillgate's home", async () => {
    const skillgateHome = join(h.root, "sghome");
    const plan = runPlanFor(
      ExecSchema.parse({}),
      { id: "tests/hostile", metadata: { "skillgate-cache": "uv,bun" } },
      { SKILLGATE_HOME: skillgateHome },
    );
    h.addScript(
      "toolchain.sh",
      "set -e\nuv --version\nuv run --no-project --offline python -c 'print(\"uv python ok\")'\nbun -e 'console.log(\"bun ok\")'\n",
    );
    const result = await runScript(
      await h.request("toolchain.sh", {
        env: { ...plan.extraEnv },
        persistentPaths: plan.persistentPaths,
        limits: { ...SMALL_LIMITS, memoryBytes: 512 * 1024 * 1024, timeoutMs: 20_000 },
      }),
    );
    expect(result.status, result.output).toBe("ok");
    expect(result.stdout).toMatch(/^uv \d+\.\d+\.\d+.*\nuv python ok\nbun ok\n$/);
    expect(existsSync(join(skillgateHome, "cache", "uv", "cache", "CACHEDIR.TAG"))).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("lets the run read extra read-only folders only when asked", async () => {
    const extra = join(h.root, "extra");
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, "data.txt"), "extra data\n");
    h.addScript("cat.sh", 'cat "$1"\n');
    const req = await h.request("cat.sh", { args: [join(extra, "data.txt")] });
    expect((await runScript(req)).status).toBe("nonzero_exit");
    const allowed = await runScript({ ...req, readOnlyPaths: [extra] });
    expect(allowed).toMatchObject({ status: "ok", stdout: "extra data\n" });
    const write = await runScript({
      ...(await h.request("write.sh", { args: [join(extra, "new")] })),
      readOnlyPaths: [extra],
    });
    expect(write.status).toBe("nonzero_exit");
    expect(existsSync(join(extra, "new"))).toBe(false);
  });

  it("binds persistent cache folders writable", async () => {
    const cache = join(h.root, "home", "cache", "uv");
    const result = await runScript(
      await h.request("write.sh", {
        args: [join(cache, "kept")],
        persistentPaths: [cache],
        env: { UV_CACHE_DIR: cache },
      }),
    );
    expect(result.status).toBe("ok");
    expect(existsSync(join(cache, "kept"))).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  describe("network", () => {
    let loopback: Server;
    let external: Server;
    let port = 0;
    let externalPort = 0;
    let connections = 0;
    // A host address that is not loopback: what a granted run can reach (README says so).
    const hostAddress = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry?.family === "IPv4" && !entry.internal)?.address;
    beforeAll(async () => {
      const serve = () =>
        createServer((socket) => {
          connections++;
          socket.end("hello");
        });
      loopback = serve();
      external = serve();
      await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
      await new Promise<void>((resolve) => external.listen(0, hostAddress, resolve));
      port = (loopback.address() as { port: number }).port;
      externalPort = (external.address() as { port: number }).port;
    });
    afterAll(() => {
      loopback.close();
      external.close();
    });

    it("is off by default; a grant gives user-mode networking that still cannot reach the host's loopback", async () => {
      expect(hostAddress, "this test needs a non-loopback IPv4 address").toBeDefined();
      for (const address of ["127.0.0.1", hostAddress as string]) {
        const off = await runScript(await h.request("connect.py", { args: [String(externalPort), address] }));
        expect(off.status).toBe("nonzero_exit");
      }
      expect(connections).toBe(0);
      const local = await runScript(
        await h.request("connect.py", { args: [String(port), "127.0.0.1"], network: true }),
      );
      expect(local.status, `${local.output} ${local.warnings}`).toBe("nonzero_exit");
      expect(local.stderr).toContain("Connection refused");
      expect(connections).toBe(0);
      const on = await runScript(
        await h.request("connect.py", { args: [String(externalPort), hostAddress as string], network: true }),
      );
      expect(on).toMatchObject({ status: "ok", stdout: "connected hello\n" });
      expect(connections).toBe(1);
    });
  });

  describe("level 3", () => {
    const finding = { severity: "critical", message: "eval of input", file: "x.py", line: 3 };
    it("refuses critical findings unless approved", async () => {
      const base = await h.request("exit3.sh", { sandboxLevel: 3 });
      const scanned: string[][] = [];
      const scan = async (paths: string[]) => {
        scanned.push(paths);
        return [finding, { severity: "low", message: "note", file: "x.py", line: 1 }];
      };
      const refused = await runScript({ ...base, scan });
      expect(refused.status).toBe("refused");
      expect(refused.findings).toHaveLength(2);
      expect(refused.message).toBe(
        "SCAN_REFUSED: script 'exit3.sh' has 1 critical scan finding(s): x.py:3 eval of input; fix: remove them, or approve the skill in exec.approve_scan_findings after review",
      );
      expect(scanned).toEqual([[base.scriptPath]]);
      const approved = await runScript({ ...base, scan, scanApproved: true });
      expect(approved).toMatchObject({ status: "nonzero_exit", exitCode: 3, sandboxed: true });
      expect(approved.findings).toHaveLength(2);
      const clean = await runScript({ ...base, scan: async () => [] });
      expect(clean.status).toBe("nonzero_exit");
    });

    it("refuses when no scan is provided", async () => {
      const result = await runScript(await h.request("exit3.sh", { sandboxLevel: 3 }));
      expect(result.status).toBe("refused");
      expect(result.message).toBe(
        "SCAN_REFUSED: script 'exit3.sh' needs the static scan at sandbox level 3 but none was provided; fix: pass the scan (runtime/scan scanFiles) or lower exec.sandbox_level to 2",
      );
    });
  });

  describe("unavailable sandbox", () => {
    it("fails closed with SANDBOX_UNAVAILABLE, the cause and the fix", async () => {
      const req = await h.request("exit3.sh", { bwrapPath: "/nonexistent/bwrap" });
      const result = await runScript(req);
      expect(result).toMatchObject({
        status: "sandbox_unavailable",
        sandboxed: false,
        exitCode: null,
        output: "",
      });
      expect(result.message).toBe(
        "SANDBOX_UNAVAILABLE: cannot run script 'exit3.sh' at sandbox level 2: bubblewrap not found at /nonexistent/bwrap; fix: apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox",
      );
    });

    it("honours SKILLGATE_BWRAP and reports a bwrap that fails its probe", async () => {
      const fake = h.addScript(
        "fake-bwrap",
        "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
      );
      const result = await runScript(await h.request("exit3.sh"), {
        env: { ...process.env, SKILLGATE_BWRAP: fake },
      });
      expect(result.status).toBe("sandbox_unavailable");
      expect(result.message).toBe(
        `SANDBOX_UNAVAILABLE: cannot run script 'exit3.sh' at sandbox level 2: ${fake} failed its probe (exit 1): bwrap: setting up uid map: Permission denied; fix: apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox`,
      );
    });

    it("runs unsandboxed only on opt-in, warning once per process, sandboxed: false every time", async () => {
      resetUnsandboxedWarning();
      const req = await h.request("exit3.sh", { bwrapPath: "/nonexistent/bwrap", allowUnsandboxed: true });
      const first = await runScript(req);
      const second = await runScript(req);
      expect(first).toMatchObject({ status: "nonzero_exit", exitCode: 3, sandboxed: false });
      expect(first.warnings).toEqual([
        "SANDBOX_UNAVAILABLE: scripts run WITHOUT the OS sandbox (bubblewrap not found at /nonexistent/bwrap) because exec.allow_unsandboxed is true; only resource limits apply",
      ]);
      expect(second).toMatchObject({ status: "nonzero_exit", sandboxed: false, warnings: [] });
    });

    it("has no OS sandbox on other platforms and says so", async () => {
      const result = await runScript(await h.request("exit3.sh"), { platform: "win32" });
      expect(result.status).toBe("sandbox_unavailable");
      expect(result.message).toContain("no OS sandbox is implemented for platform win32");
    });
  });
});
