// Reads the skill flags (--use-skill, --no-use-skill, --extra-skill-path) from raw argv, in UCAgent's rules.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SkillgateError } from "../errors.js";

export interface ArgvSkillFlags {
  /** Present only when --use-skill or --no-use-skill was given; the last one wins. */
  useSkill?: boolean;
  /** Absolute paths, in the order given. */
  extraSkillPaths: string[];
}

export interface SkillFlagsOptions {
  cwd?: string;
  exists?: (path: string) => boolean;
}

const EXTRA = "--extra-skill-path";

/**
 * Scans argv (stopping at `--`). A conflict between --extra-skill-path and --no-use-skill is reported
 * before any path is checked, so the user fixes the flags first.
 */
export function skillFlagsFromArgv(argv: readonly string[], options: SkillFlagsOptions = {}): ArgvSkillFlags {
  const cwd = options.cwd ?? process.cwd();
  const exists = options.exists ?? existsSync;
  let useSkill: boolean | undefined;
  let sawNoUseSkill = false;
  const given: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg === "--use-skill") useSkill = true;
    else if (arg === "--no-use-skill") {
      useSkill = false;
      sawNoUseSkill = true;
    } else if (arg === EXTRA) {
      const value = argv[i + 1];
      if (value === undefined || value === "" || value.startsWith("--")) {
        throw new SkillgateError("USAGE", `${EXTRA} needs a path after it, e.g. ${EXTRA} ./my-skills`);
      }
      given.push(value);
      i++;
    } else if (arg.startsWith(`${EXTRA}=`)) {
      const value = arg.slice(EXTRA.length + 1);
      if (value === "")
        throw new SkillgateError("USAGE", `${EXTRA}= needs a path, e.g. ${EXTRA}=./my-skills`);
      given.push(value);
    }
  }
  if (given.length > 0 && sawNoUseSkill) {
    throw new SkillgateError("FLAG_CONFLICT", `${EXTRA} cannot be used with --no-use-skill`);
  }
  const extraSkillPaths = given.map((p) => resolve(cwd, p));
  extraSkillPaths.forEach((absolute, index) => {
    if (!exists(absolute)) {
      throw new SkillgateError(
        "PATH_NOT_FOUND",
        `${EXTRA} ${given[index]} does not exist (resolved to ${absolute}); give an existing skill folder`,
        { path: absolute },
      );
    }
  });
  return useSkill === undefined ? { extraSkillPaths } : { useSkill, extraSkillPaths };
}
