// The skill-flag cases both parsers must agree on: config's skillFlagsFromArgv and the cli's commander options.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";

export type SkillFlagOk = [
  name: string,
  argv: string[],
  expected: { useSkill?: boolean; extraSkillPaths: string[] },
];
export type SkillFlagFailure = [name: string, argv: string[], code: string, message: string];

const NEEDS_PATH = "--extra-skill-path needs a path after it, e.g. --extra-skill-path ./my-skills";
const CONFLICT = "--extra-skill-path cannot be used with --no-use-skill";

/** Rows for a real folder `cwd` (also the existing extra path); `cwd/missing` does not exist. */
export function skillFlagCases(cwd: string): { ok: SkillFlagOk[]; failures: SkillFlagFailure[] } {
  const missing = join(cwd, "missing");
  return {
    ok: [
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
    ],
    failures: [
      [
        "conflict, even when the path is missing (checked first)",
        ["--no-use-skill", "--extra-skill-path", missing],
        "FLAG_CONFLICT",
        CONFLICT,
      ],
      [
        "conflict, --no-use-skill after the path",
        [`--extra-skill-path=${cwd}`, "--no-use-skill"],
        "FLAG_CONFLICT",
        CONFLICT,
      ],
      [
        "conflict, --no-use-skill anywhere even if --use-skill comes last",
        ["--no-use-skill", "--extra-skill-path", cwd, "--use-skill"],
        "FLAG_CONFLICT",
        CONFLICT,
      ],
      [
        "missing path",
        ["--extra-skill-path", "missing"],
        "PATH_NOT_FOUND",
        `--extra-skill-path missing does not exist (resolved to ${missing}); give an existing skill folder`,
      ],
      ["a flag where the value should be", ["--extra-skill-path", "--use-skill"], "USAGE", NEEDS_PATH],
    ],
  };
}

/** `parse` throws a SkillgateError with exactly this code and message. */
export function expectFlagError(parse: () => unknown, code: string, message: string): void {
  let caught: unknown;
  try {
    parse();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SkillgateError);
  expect((caught as SkillgateError).code).toBe(code);
  expect((caught as SkillgateError).message).toBe(message);
}

export { NEEDS_PATH };
