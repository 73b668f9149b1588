// RunSkillScript's records on a real workspace: the run request from config, argv as shown, use evidence, the signed receipt.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { callTool } from "../../../runtime/tools/registry.js";
import { prepareCommand } from "../../../runtime/tools/run-skill-script/commands.js";
import {
  argvText,
  type CommandRecord,
  callUseOf,
  recordReceipt,
  requestFor,
  stageUseOf,
} from "../../../runtime/tools/run-skill-script/records.js";
import type { OpenedSession } from "../../../runtime/tools/session.js";
import { type Fixture, GATE_SKILL, makeFixture } from "../helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

async function prepared(session: OpenedSession, command: [string, string, string]) {
  const skills = session.catalog()?.skills ?? [];
  const result = await prepareCommand(session, skills, command, 1);
  if (!result.ok) throw new Error(result.result.text);
  return result.command;
}

describe("requestFor", () => {
  it("runs in the workspace with DUT and OUT, only the workspace writable, the config's level and limits", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const command = await prepared(session, [GATE_SKILL, "show_env.py", "--a 'b c'"]);
    const { request, warnings } = await requestFor(session, command, fixture.env);
    expect(request).toMatchObject({
      runner: command.runner,
      scriptPath: command.scriptPath,
      args: ["--a", "b c"],
      cwd: session.paths.root,
      writablePaths: [session.paths.root],
      sandboxLevel: 2,
      allowUnsandboxed: false,
      scanApproved: false,
    });
    expect(request.env).toMatchObject({ DUT: session.runtime.DUT, OUT: session.runtime.OUT });
    expect(request.limits.timeoutMs).toBe(60_000);
    expect(request.scanPaths).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});

describe("argvText", () => {
  it("shows workspace paths relative and quotes what a shell would split, like shlex.join", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    expect(
      argvText(session, [
        "python3",
        `${session.paths.root}/.ucagent/skills/x/scripts/a.py`,
        "plain",
        "two words",
        "it's",
      ]),
    ).toBe("python3 .ucagent/skills/x/scripts/a.py plain 'two words' 'it'\\''s'");
  });
});

describe("callUseOf and stageUseOf", () => {
  it("offers every skill the call ran once, with the commands, and keeps only the current stage's", async () => {
    fixture = makeFixture({ general: ["fixture/text-skill"] });
    const session = await fixture.open();
    const gate = await prepared(session, [GATE_SKILL, "show_env.py", ""]);
    const records = [
      { skill_id: GATE_SKILL, script: "show_env.py", argv: ["python3", "a"] },
      { skill_id: GATE_SKILL, script: "show_env.py", argv: ["python3", "b"] },
    ] as CommandRecord[];
    const use = callUseOf([gate, gate], records);
    expect(use).toEqual({
      skillIds: [GATE_SKILL],
      detail: {
        commands: [
          { skill_id: GATE_SKILL, script: "show_env.py", argv: ["python3", "a"] },
          { skill_id: GATE_SKILL, script: "show_env.py", argv: ["python3", "b"] },
        ],
      },
    });
    expect(await stageUseOf(session, { ...use, skillIds: [GATE_SKILL, "fixture/text-skill"] })).toEqual(use);
  });
});

describe("recordReceipt", () => {
  it("a real run leaves a signed run receipt in the ledger with the script's bound hash and output hashes", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const ran = await callTool(session, "RunSkillScript", { commands: [[GATE_SKILL, "show_env.py", ""]] });
    expect(ran.isError).toBe(false);
    const command = await prepared(session, [GATE_SKILL, "show_env.py", ""]);
    const result = {
      argv: ["python3", command.scriptPath],
      status: "ok",
      exitCode: 0,
      signal: null,
      timedOut: false,
      durationMs: 5,
      stdout: "out",
      stderr: "",
      truncated: false,
      sandboxed: true,
    };
    const recorded = await recordReceipt(session, command, result as never);
    expect(recorded).not.toBeNull();
    const runs = readFileSync(session.paths.ledger, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((record) => record.kind === "run");
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.at(-1).data).toMatchObject({
      skill_id: GATE_SKILL,
      script: "show_env.py",
      script_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: "ok",
      stdout_sha256: createHash("sha256").update("out").digest("hex"),
      stderr_sha256: createHash("sha256").update("").digest("hex"),
    });
  });
});
