// The skill flags parsed once by commander: last of --use-skill/--no-use-skill wins, conflicts and paths checked in order.
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { addSessionOptions, sessionOptionsFrom, skillFlagsOf } from "../../runtime/cli/session-options.js";
import {
  expectFlagError,
  NEEDS_PATH,
  type SkillFlagFailure,
  skillFlagCases,
} from "../support/skill-flag-cases.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-cli-flags-");
const cwd = temp.dir;
afterAll(temp.cleanup);

function parsed(argv: string[]): Command {
  const command = addSessionOptions(new Command("call")).exitOverride();
  command.parse(argv, { from: "user" });
  return command;
}

describe("skillFlagsOf", () => {
  const { ok, failures } = skillFlagCases(cwd);
  it.each(ok)("%s", (_name, argv, expected) => {
    expect(skillFlagsOf(parsed(argv), { cwd })).toEqual(expected);
  });

  const own: SkillFlagFailure[] = [["empty = value", ["--extra-skill-path="], "USAGE", NEEDS_PATH]];
  it.each([...failures, ...own])("%s", (_name, argv, code, message) => {
    expectFlagError(() => skillFlagsOf(parsed(argv), { cwd }), code, message);
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
