// runtime/cli/io.ts: exit codes per error code (same in every verb), error printing, colour only on a TTY, EPIPE.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { EXIT_FAILED, EXIT_USAGE, exitCodeFor, reportError } from "../../runtime/cli/io.js";
import { type ErrorCode, SkillgateError } from "../../runtime/errors.js";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { MAIN, TSX } from "../mcp/helpers.js";
import { runProcess } from "../support/process.js";
import { REPO_ROOT } from "../tools/helpers.js";
import { fixturesForFile, recordingIO, skillgate as runSkillgate } from "./helpers.js";

const run = promisify(execFile);

const fixture = fixturesForFile();

const skillgate = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  runSkillgate(args, { ...env, NO_COLOR: "1" });

describe("exitCodeFor", () => {
  it.each([
    ["USAGE", EXIT_USAGE],
    ["FLAG_CONFLICT", EXIT_USAGE],
    ["PATH_NOT_FOUND", EXIT_USAGE],
    ["CONFIG_INVALID", EXIT_FAILED],
    ["WORKFLOW_INVALID", EXIT_FAILED],
    ["LEDGER_KEY_MISMATCH", EXIT_FAILED],
  ] as [ErrorCode, number][])("%s exits %i", (code, exit) => {
    expect(exitCodeFor(code)).toBe(exit);
  });
});

describe("reportError", () => {
  const error = new SkillgateError("PATH_NOT_FOUND", 'path "x" does not exist; pass a folder', { path: "x" });

  it("prints `error [CODE]: message` on stderr and sets the code's exit code", () => {
    const io = recordingIO();
    reportError(io, error, false);
    expect(io).toMatchObject({
      outs: [],
      errs: ['error [PATH_NOT_FOUND]: path "x" does not exist; pass a folder'],
    });
    expect(io.exitCode).toBe(EXIT_USAGE);
  });

  it("in JSON mode prints {ok: false, error} on stdout instead", () => {
    const io = recordingIO();
    reportError(io, error, true);
    expect(io.errs).toEqual([]);
    expect(JSON.parse(io.outs.join(""))).toEqual({
      ok: false,
      error: {
        code: "PATH_NOT_FOUND",
        message: 'path "x" does not exist; pass a folder',
        details: { path: "x" },
      },
    });
  });

  it("never lowers a worse exit code already set", () => {
    const io = recordingIO();
    io.setExitCode(EXIT_USAGE);
    reportError(io, new SkillgateError("CONFIG_INVALID", "bad"), false);
    expect(io.exitCode).toBe(EXIT_USAGE);
  });

  it("rethrows what is not a SkillgateError (our bug: main prints it as an internal error)", () => {
    const bug = new TypeError("boom");
    expect(() => reportError(recordingIO(), bug, false)).toThrow(bug);
  });
});

describe("the same error is the same exit code in every verb", () => {
  it.each([
    {
      args: ["init", "/nonexistent-ws-parent/ws", "--extra-skill-path", "/nonexistent-skills"],
      stderr: "error [PATH_NOT_FOUND]: ",
    },
    {
      args: ["validate", "/nonexistent-skills"],
      stderr:
        'error [PATH_NOT_FOUND]: path "/nonexistent-skills" does not exist; pass a skill folder (holding SKILL.md) or a folder of skills\n',
    },
    {
      args: ["catalog", "/nonexistent-skills"],
      stderr:
        'error [PATH_NOT_FOUND]: skill root "/nonexistent-skills" does not exist; pass the folder that holds the skill folders\n',
    },
  ])("skillgate $args exits 2 with PATH_NOT_FOUND", async ({ args, stderr }) => {
    const f = fixture();
    const outcome = await skillgate(args, f.env);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr.startsWith(stderr)).toBe(true);
  });
});

describe("colour", () => {
  // `script` gives the CLI a real terminal: colour is on there, and NO_COLOR or a pipe turns it off.
  async function underTerminal(env: NodeJS.ProcessEnv): Promise<string> {
    const { stdout } = await run(
      "script",
      ["-qec", `"${TSX}" "${MAIN}" validate test/fixtures/skills/valid-root`, "/dev/null"],
      { cwd: REPO_ROOT, env },
    );
    return stdout;
  }
  const SUMMARY = "2 skill(s) checked in ucagent mode: 2 valid, 0 invalid";

  it("is used on a terminal, and never with NO_COLOR or when stdout is a pipe", async () => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    expect(await underTerminal(env)).toContain(`\u001b[32m${SUMMARY}\u001b[39m`);
    const plain = await underTerminal({ ...env, NO_COLOR: "1" });
    expect(plain).toContain(SUMMARY);
    expect(plain).not.toContain("\u001b[");
    const piped = await runSkillgate(["validate", "test/fixtures/skills/valid-root"], env);
    expect(piped).toEqual({ code: 0, stdout: `${SUMMARY}\n`, stderr: "" });
  });
});

describe("closed pipes", () => {
  it("catalog piped into head exits cleanly (no EPIPE crash)", async () => {
    const f = fixture();
    const root = join(f.dir, "many");
    for (let i = 0; i < 400; i++) {
      const dir = join(root, `skill-${String(i).padStart(3, "0")}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "SKILL.md"), `---\nname: skill-${i}\ndescription: ${"x".repeat(900)}\n---\n`);
    }
    const { stdout, stderr } = await run(
      "bash",
      ["-c", `"${TSX}" "${MAIN}" catalog "${root}" | head -n 1; echo "status=\${PIPESTATUS[0]}"`],
      { cwd: REPO_ROOT, env: f.env, maxBuffer: 1 << 24 },
    );
    expect(stdout).toBe(`400 skill(s) in ${root}\nstatus=0\n`);
    expect(stderr).toBe("");
  });
});

describe("output without the stdio streams", () => {
  it("the built `call ListSkill` prints its answer through pipes without creating process.stdout or process.stderr (no net, no tty)", async () => {
    ensureBuilt();
    const f = fixture();
    const probe = join(f.dir, "stdio.json");
    const args = ["call", "ListSkill", "--workspace", f.ws, "--config", f.configFile];
    const plain = await runProcess(process.execPath, [BUILT_MAIN, ...args], { cwd: REPO_ROOT, env: f.env });
    expect(plain.code).toBe(0);
    const probed = await runProcess(
      process.execPath,
      ["--require", join(REPO_ROOT, "test", "cli", "stdio-probe.cjs"), BUILT_MAIN, ...args],
      { cwd: REPO_ROOT, env: { ...f.env, STDIO_PROBE: probe } },
    );
    expect(probed).toEqual(plain);
    expect(probed.stdout).toContain("Found 1 available skills:");
    expect(JSON.parse(readFileSync(probe, "utf8"))).toEqual([]);
  }, 600_000);

  it("a non-blocking pipe that fills up (EAGAIN) still gets the whole output, in order, through the stream", async () => {
    const f = fixture();
    const root = join(f.dir, "wide");
    for (let i = 0; i < 300; i++) {
      const dir = join(root, `skill-${String(i).padStart(3, "0")}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "SKILL.md"), `---\nname: skill-${i}\ndescription: ${"y".repeat(900)}\n---\n`);
    }
    const argv = [process.execPath, "--import", "tsx", MAIN, "catalog", root, "--json"];
    const blocking = await runProcess(argv[0] as string, argv.slice(1), { cwd: REPO_ROOT, env: f.env });
    expect(blocking.code).toBe(0);
    expect(blocking.stdout.length).toBeGreaterThan(200_000);
    // The reader starts only after a pause, so the 64 KiB pipe is full long before the writer is done.
    const reader = `import fcntl, os, subprocess, sys, time
r, w = os.pipe()
fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
child = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
time.sleep(1)
data = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    data += chunk
sys.stdout.buffer.write(data)
sys.exit(child.wait())
`;
    const nonBlocking = await runProcess("python3", ["-c", reader, ...argv], {
      cwd: REPO_ROOT,
      env: f.env,
    });
    expect(nonBlocking).toEqual(blocking);
  }, 120_000);
});
