import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { skillFlagsFromArgv } from "../../runtime/config/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-flags-");
const cwd = temp.dir;
afterAll(temp.cleanup);
const existing = cwd; // a real folder
const missing = join(cwd, "missing");

describe("skillFlagsFromArgv", () => {
  const ok: [string, string[], { useSkill?: boolean; extraSkillPaths: string[] }][] = [
    ["no flags: config decides", ["init", "ws"], { extraSkillPaths: [] }],
    ["--use-skill", ["--use-skill"], { useSkill: true, extraSkillPaths: [] }],
    ["--no-use-skill", ["--no-use-skill"], { useSkill: false, extraSkillPaths: [] }],
    ["last one wins (off)", ["--use-skill", "x", "--no-use-skill"], { useSkill: false, extraSkillPaths: [] }],
    ["last one wins (on)", ["--no-use-skill", "--use-skill"], { useSkill: true, extraSkillPaths: [] }],
    ["extra path, separate value", ["--extra-skill-path", existing], { extraSkillPaths: [existing] }],
    ["extra path, = form", [`--extra-skill-path=${existing}`], { extraSkillPaths: [existing] }],
    ["extra path, relative to cwd", ["--extra-skill-path", "."], { extraSkillPaths: [cwd] }],
    [
      "extra path repeated, order kept",
      ["--extra-skill-path", existing, "--use-skill", `--extra-skill-path=${tmpdir()}`],
      { useSkill: true, extraSkillPaths: [existing, tmpdir()] },
    ],
    ["flags after -- are not ours", ["--", "--no-use-skill"], { extraSkillPaths: [] }],
  ];
  it.each(ok)("%s", (_name, argv, expected) => {
    expect(skillFlagsFromArgv(argv, { cwd })).toEqual(expected);
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
      [`--extra-skill-path=${existing}`, "--no-use-skill"],
      "FLAG_CONFLICT",
      "--extra-skill-path cannot be used with --no-use-skill",
    ],
    [
      "conflict, --no-use-skill anywhere even if --use-skill comes last",
      ["--no-use-skill", "--extra-skill-path", existing, "--use-skill"],
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
      "missing value",
      ["--extra-skill-path"],
      "USAGE",
      "--extra-skill-path needs a path after it, e.g. --extra-skill-path ./my-skills",
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
      "--extra-skill-path= needs a path, e.g. --extra-skill-path=./my-skills",
    ],
  ];
  it.each(failures)("%s", (_name, argv, code, message) => {
    let caught: unknown;
    try {
      skillFlagsFromArgv(argv, { cwd });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkillgateError);
    expect((caught as SkillgateError).code).toBe(code);
    expect((caught as SkillgateError).message).toBe(message);
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
