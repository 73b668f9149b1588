// config's skill-flag reader over raw argv (skillFlagsFromArgv): the cases it shares with the cli parser, plus positionals and `--`.
import { afterAll, describe, expect, it } from "vitest";
import { skillFlagsFromArgv } from "../../runtime/config/index.js";
import {
  expectFlagError,
  NEEDS_PATH,
  type SkillFlagFailure,
  type SkillFlagOk,
  skillFlagCases,
} from "../support/skill-flag-cases.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-flags-");
const cwd = temp.dir;
afterAll(temp.cleanup);

describe("skillFlagsFromArgv", () => {
  const { ok, failures } = skillFlagCases(cwd);
  const ownOk: SkillFlagOk[] = [
    ["positional arguments are not flags", ["init", "ws"], { extraSkillPaths: [] }],
    [
      "last one wins across a positional",
      ["--use-skill", "x", "--no-use-skill"],
      { useSkill: false, extraSkillPaths: [] },
    ],
    ["flags after -- are not ours", ["--", "--no-use-skill"], { extraSkillPaths: [] }],
  ];
  it.each([...ok, ...ownOk])("%s", (_name, argv, expected) => {
    expect(skillFlagsFromArgv(argv, { cwd })).toEqual(expected);
  });

  const own: SkillFlagFailure[] = [
    ["missing value", ["--extra-skill-path"], "USAGE", NEEDS_PATH],
    [
      "empty = value",
      ["--extra-skill-path="],
      "USAGE",
      "--extra-skill-path= needs a path, e.g. --extra-skill-path=./my-skills",
    ],
  ];
  it.each([...failures, ...own])("%s", (_name, argv, code, message) => {
    expectFlagError(() => skillFlagsFromArgv(argv, { cwd }), code, message);
  });

  it("checks existence through the injected probe", () => {
    const seen: string[] = [];
    skillFlagsFromArgv(["--extra-skill-path", "a"], {
      cwd: "/base",
      exists: (path) => {
        seen.push(path);
        return true;
      },
    });
    expect(seen).toEqual(["/base/a"]);
  });
});
