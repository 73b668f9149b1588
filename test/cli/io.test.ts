// runtime/cli/io.ts: exit codes per error code (same in every verb), error printing, colour only on a TTY, EPIPE.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { EXIT_FAILED, EXIT_USAGE, exitCodeFor, reportError } from "../../runtime/cli/io.js";
import { type ErrorCode, SkillgateError } from "../../runtime/errors.js";
import { MAIN, TSX } from "../mcp/helpers.js";
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
