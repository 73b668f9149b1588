// The skill flags parsed once by commander: last of --use-skill/--no-use-skill wins, conflicts and paths checked in order.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { addSessionOptions, sessionOptionsFrom, skillFlagsOf } from "../../runtime/cli/session-options.js";
import { SkillgateError } from "../../runtime/errors.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-cli-flags-");
const cwd = temp.dir;
afterAll(temp.cleanup);
const missing = join(cwd, "missing");

function parsed(argv: string[]): Command {
  const command = addSessionOptions(new Command("call")).exitOverride();
  command.parse(argv, { from: "user" });
  return command;
}

describe("skillFlagsOf", () => {
  const ok: [string, string[], { useSkill?: boolean; extraSkillPaths: string[] }][] = [
    ["no flags: config decides", [], { extraSkillPaths: [] }],
    ["--use-skill", ["--use-skill"], { useSkill: true, extraSkillPaths: [] }],
    ["--no-use-skill", ["--no-use-skill"], { useSkill: false, extraSkillPaths: [] }],
    ["last one wins (off)", ["--use-skill", "--no-use-skill"], { useSkill: false, extraSkillPaths: [] }],
    ["last one wins (on)", ["--no-use-skill", "--use-skill"], { useSkill: true, extraSkillPaths: [] }],
    ["extra path, separate value", ["--extra-skill-path", cwd], { extraSkillPaths: [cwd] }],
    ["extra path, = form", [`--extra-skill-path=${cwd}`], { extraSkillPaths: [cwd] }],
    ["extra path, relative to cwd", ["--extra-skill-path", "."], { extraSkillPaths: [cwd] }],
    [
      "extra path repeated, order kept",
      ["--extra-skill-path", cwd, "--use-skill", `--extra-skill-path=${tmpdir()}`],
      { useSkill: true, extraSkillPaths: [cwd, tmpdir()] },
    ],
  ];
  it.each(ok)("%s", (_name, argv, expected) => {
    expect(skillFlagsOf(parsed(argv), { cwd })).toEqual(expected);
  });

  const failures: [string, string[], string, string][] = [
    [
      "conflict, even when the path is missing (checked first)",
      ["--no-use-skill", "--extra-skill-path", missing],
      "FLAG_CONFLICT",
      "--extra-skill-path cannot be used with --no-use-skill",
    ],
    [
      "conflict, --no-use-skill after the path",
      [`--extra-skill-path=${cwd}`, "--no-use-skill"],
      "FLAG_CONFLICT",
      "--extra-skill-path cannot be used with --no-use-skill",
    ],
    [
      "conflict, --no-use-skill anywhere even if --use-skill comes last",
      ["--no-use-skill", "--extra-skill-path", cwd, "--use-skill"],
      "FLAG_CONFLICT",
      "--extra-skill-path cannot be used with --no-use-skill",
    ],
    [
      "missing path",
      ["--extra-skill-path", "missing"],
      "PATH_NOT_FOUND",
      `--extra-skill-path missing does not exist (resolved to ${missing}); give an existing skill folder`,
    ],
    [
      "a flag where the value should be",
      ["--extra-skill-path", "--use-skill"],
      "USAGE",
      "--extra-skill-path needs a path after it, e.g. --extra-skill-path ./my-skills",
    ],
    [
      "empty = value",
      ["--extra-skill-path="],
      "USAGE",
      "--extra-skill-path needs a path after it, e.g. --extra-skill-path ./my-skills",
    ],
  ];
  it.each(failures)("%s", (_name, argv, code, message) => {
    let caught: unknown;
    try {
      skillFlagsOf(parsed(argv), { cwd });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkillgateError);
    expect((caught as SkillgateError).code).toBe(code);
    expect((caught as SkillgateError).message).toBe(message);
  });

  it("a missing value is commander's own error, before any of ours", () => {
    expect(() => parsed(["--extra-skill-path"])).toThrow(
      "error: option '--extra-skill-path <path>' argument missing",
    );
  });
});

describe("sessionOptionsFrom", () => {
  it("passes the parsed flags (never argv) and --config; a missing workspace is a usage error", () => {
    const command = parsed(["--config", "c.yaml", "--no-use-skill"]);
    expect(sessionOptionsFrom(command, command.opts(), "/w/ws")).toEqual({
      workspace: "/w/ws",
      configFile: "c.yaml",
      flags: { useSkill: false, extraSkillPaths: [] },
    });
    expect(() => sessionOptionsFrom(command, command.opts(), undefined)).toThrow(
      "missing --workspace <dir>: name the workspace folder, e.g. --workspace ./ws",
    );
  });
});
