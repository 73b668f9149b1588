// `skillgate call` / `status` as separate processes: a forced stage driven from a shell, state persisted between calls.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN, TSX } from "../../mcp/helpers.js";
import { type ProcessOutcome, runProcess } from "../../support/process.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../../tools/helpers.js";

let fixture: Fixture;

function skillgate(args: string[]): Promise<ProcessOutcome> {
  return runProcess(TSX, [MAIN, ...args], { cwd: REPO_ROOT, env: fixture.env });
}

const ws = () => ["--workspace", fixture.ws, "--config", fixture.configFile];

beforeAll(() => {
  fixture = makeFixture();
});
afterAll(() => fixture.cleanup());

describe("skillgate call across processes", () => {
  it("drives the forced stage: gate failure first, then list → read → run → check → usage → complete", async () => {
    const early = await skillgate(["call", "Complete", ...ws(), "--json"]);
    expect(early.code).toBe(1);
    const earlyJson = JSON.parse(early.stdout) as { isError: boolean; code: string };
    expect(earlyJson).toMatchObject({ isError: true, code: "SKILL_USAGE_INCOMPLETE" });

    const listed = await skillgate(["call", "ListSkill", ...ws()]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^Found 1 available skills:\n1\. Skill Name: gate-skill\n/);

    const read = await skillgate(["call", "ReadTextFile", JSON.stringify({ path: GATE_SKILL_MD }), ...ws()]);
    expect(read.code).toBe(0);
    expect(read.stdout).toMatch(
      /^Read \d+\/\d+ lines from '\.ucagent\/skills\/fixture\/gate-skill\/SKILL\.md'/,
    );

    const ran = await skillgate([
      "call",
      "RunSkillScript",
      JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title CLI"]] }),
      ...ws(),
    ]);
    expect(ran.code).toBe(0);
    expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toContain("# CLI");

    expect((await skillgate(["call", "Check", ...ws()])).code).toBe(0);
    const usage = await skillgate([
      "call",
      "SetSkillUsage",
      JSON.stringify({ skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } }),
      ...ws(),
    ]);
    expect(usage.code).toBe(0);

    const status = await skillgate(["status", ...ws()]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("Skill evidence of stage 'report' (required before Complete):");
    expect(status.stdout).toMatch(/fixture\/gate-skill\s+yes\s+yes\s+yes\s+-/);
    expect(status.stdout).not.toContain("\u001b[");

    const complete = await skillgate(["call", "Complete", ...ws()]);
    expect(complete.code).toBe(0);

    const after = await skillgate(["status", ...ws(), "--json"]);
    expect(after.code).toBe(0);
    const json = JSON.parse(after.stdout) as {
      current_stage: string;
      stages: { name: string; state: string }[];
    };
    expect(json.current_stage).toBe("summary");
    expect(json.stages.map((stage) => [stage.name, stage.state])).toEqual([
      ["report", "done"],
      ["summary", "current"],
    ]);
  });

  it.each([
    {
      args: ["call", "ReadTextFile", "{not json"],
      workspace: true,
      code: 2,
      message: "tool arguments are not valid JSON",
    },
    { args: ["call", "Status"], workspace: false, code: 2, message: "missing --workspace <dir>" },
    {
      args: ["call", "Status", "--extra-skill-path", "/nonexistent", "--no-use-skill"],
      workspace: true,
      code: 2,
      message: "--extra-skill-path cannot be used with --no-use-skill",
    },
    {
      // A later --use-skill does not hide the conflict: the loader sees the flags in the order typed.
      args: ["call", "Status", "--no-use-skill", "--extra-skill-path", "/nonexistent", "--use-skill"],
      workspace: true,
      code: 2,
      message: "--extra-skill-path cannot be used with --no-use-skill",
    },
    {
      args: ["call", "ReadTextFile", '{"path": "../outside"}'],
      workspace: true,
      code: 1,
      // The workspace root ends the sentence: shown as '.', never as "outside .."
      message:
        "File '../outside' is not within the workspace: '..' leads outside '.'. Please provide a path inside the workspace.",
    },
    {
      args: ["call", "ReadTextFile", '{"path": "dut/missing.txt"}'],
      workspace: true,
      code: 1,
      message:
        "File dut/missing.txt does not exist in workspace '.'. Check the path (relative to the workspace); ListSkill shows the SKILL.md paths of the skills.",
    },
    {
      // The write_dirs folder itself (OUT, holding the report written above) is never deleted, only its contents.
      args: ["call", "DeleteFile", '{"path": "out", "is_dir": true, "recursive": true}'],
      workspace: true,
      code: 1,
      message:
        "DeleteFile failed [WRITE_NOT_ALLOWED]:\nPath 'out' is a writable root folder (write_dirs) and cannot be deleted itself; delete the files and folders inside it instead (PathList 'out' lists them).",
    },
    // An unknown tool is a usage error of the command line, like an unknown verb.
    {
      args: ["call", "NoSuchTool"],
      workspace: true,
      code: 2,
      message: "error [USAGE]: Unknown tool 'NoSuchTool'. Available tools: ListSkill, ReadTextFile,",
    },
    {
      args: ["call", "ReadTextFile", '{"path": "dut/x", "start": -1}'],
      workspace: true,
      code: 1,
      message:
        "Invalid arguments for ReadTextFile: 'start' is too small (start is a 1-based line number (0 reads from line 1); negative values are not allowed), got -1.",
    },
  ])("skillgate $args exits $code", async ({ args, workspace, code, message }) => {
    const outcome = await skillgate(workspace ? [...args, ...ws()] : args);
    expect(outcome.code).toBe(code);
    expect(`${outcome.stdout}${outcome.stderr}`).toContain(message);
  });

  it("prints per-verb help with exit codes", async () => {
    const help = await skillgate(["call", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      "Exit codes: 0 the tool succeeded, 1 the tool reported an error (isError), 2 usage error.",
    );
    const serveHelp = await skillgate(["serve", "--help"]);
    expect(serveHelp.stdout).toContain("--http <host:port>");
  });
});

describe("skillgate call commits a run receipt durably in one commit", () => {
  it("RunSkillScript: one ledger commit and one lock cycle, no background flush after it; the head mark names the last record at exit", async () => {
    const probe = join(fixture.dir, "ledger-commits.txt");
    const ledger = join(fixture.ws, ".ucagent", "skillgate", "ledger.jsonl");
    const records = () => readFileSync(ledger, "utf8").split("\n").filter(Boolean);
    // Initialised, with a ledger, whatever ran before in this file.
    expect((await skillgate(["call", "ListSkill", ...ws()])).code).toBe(0);
    const before = records().length;
    const call = JSON.stringify({ commands: [[GATE_SKILL, "make_report.py", "--title Durable"]] });
    const outcome = await runProcess(
      process.execPath,
      [
        "--require",
        join(REPO_ROOT, "test", "cli", "ledger-commit-probe.cjs"),
        "--import",
        "tsx",
        MAIN,
        "call",
        "RunSkillScript",
        call,
        ...ws(),
      ],
      { cwd: REPO_ROOT, env: { ...fixture.env, LEDGER_COMMIT_PROBE: probe } },
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    // A deferred receipt would be answered first and flushed by a second commit before the exit.
    expect(JSON.parse(readFileSync(probe, "utf8"))).toEqual({ commits: 1, locks: 1 });
    const appended = records()
      .slice(before)
      .map((line) => JSON.parse(line) as { seq: number; kind: string });
    expect(appended.map((record) => record.kind)[0]).toBe("run");
    const last = appended.at(-1) as { seq: number };
    const heads = readdirSync(join(fixture.home, "workspaces")).filter((name) => name.endsWith(".head.json"));
    expect(heads).toHaveLength(1);
    const mark = JSON.parse(readFileSync(join(fixture.home, "workspaces", heads[0] as string), "utf8")) as {
      seq: number;
    };
    expect(mark.seq).toBe(last.seq);
  });
});
