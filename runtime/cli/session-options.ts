// The workspace, config and skill flags shared by the verbs that open a session, parsed once by commander.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { SkillgateError } from "../errors.js";
import type { OpenSessionOptions } from "../tools/index.js";
import type { InitProgress } from "../workspace/index.js";

export interface SessionFlags {
  workspace?: string;
  config?: string;
  useSkill?: boolean;
  extraSkillPath?: string[];
  json?: boolean;
}

/** The skill flags as parsed: useSkill only when given (the last of --use-skill / --no-use-skill wins). */
export interface ParsedSkillFlags {
  useSkill?: boolean;
  /** Absolute, in the order given. */
  extraSkillPaths: string[];
}

const EXTRA = "--extra-skill-path";
/**
 * The skill flag names each command was given (commander's option events; the values come from its parse):
 * --no-use-skill anywhere conflicts with an extra path even when a later --use-skill wins the value.
 */
const skillFlagsSeen = new WeakMap<Command, string[]>();

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** --use-skill, --no-use-skill and --extra-skill-path (repeatable) on a command. */
export function addSkillOptions(
  command: Command,
  help: { noUseSkill?: string; extraSkillPath?: string } = {},
): Command {
  const seen: string[] = [];
  skillFlagsSeen.set(command, seen);
  command.on("option:use-skill", () => seen.push("--use-skill"));
  command.on("option:no-use-skill", () => seen.push("--no-use-skill"));
  command.on(`option:${EXTRA.slice(2)}`, () => seen.push(EXTRA));
  return command
    .option("--use-skill", "turn skill support on (overrides config)")
    .option("--no-use-skill", help.noUseSkill ?? "turn skill support off (overrides config)")
    .option(
      `${EXTRA} <path>`,
      help.extraSkillPath ?? "extra skill folder copied under skills/ext/ at init (repeatable)",
      collect,
    );
}

export function addSessionOptions(command: Command, workspaceRequired = true): Command {
  command
    .option(
      "-w, --workspace <dir>",
      workspaceRequired
        ? "workspace folder (required)"
        : "workspace folder (default: ~/.skillgate/workspaces/default)",
    )
    .option(
      "--config <file>",
      "extra config file layered over ~/.skillgate/config.yaml and <ws>/.ucagent/setting.yaml",
    );
  return addSkillOptions(command).option("--json", "print JSON instead of text");
}

/**
 * The skill flags commander parsed, checked in UCAgent's order: a value that is not a path, then the conflict
 * with --no-use-skill (before any path is checked, so the flags are fixed first), then that each path exists.
 */
export function skillFlagsOf(
  command: Command,
  options: { cwd?: string; exists?: (path: string) => boolean } = {},
): ParsedSkillFlags {
  const values = command.opts<{ useSkill?: boolean; extraSkillPath?: string[] }>();
  const useSkill = command.getOptionValueSource("useSkill") === "cli" ? values.useSkill : undefined;
  const raw = values.extraSkillPath ?? [];
  for (const value of raw) {
    if (value === "" || value.startsWith("--")) {
      throw new SkillgateError("USAGE", `${EXTRA} needs a path after it, e.g. ${EXTRA} ./my-skills`);
    }
  }
  const seen = skillFlagsSeen.get(command) ?? [];
  const sawNo = seen.includes("--no-use-skill");
  if (raw.length > 0 && sawNo) {
    throw new SkillgateError("FLAG_CONFLICT", `${EXTRA} cannot be used with --no-use-skill`);
  }
  const exists = options.exists ?? existsSync;
  const extraSkillPaths = raw.map((given) => {
    const absolute = resolve(options.cwd ?? process.cwd(), given);
    if (!exists(absolute)) {
      throw new SkillgateError(
        "PATH_NOT_FOUND",
        `${EXTRA} ${given} does not exist (resolved to ${absolute}); give an existing skill folder`,
        { path: absolute },
      );
    }
    return absolute;
  });
  return { ...(useSkill === undefined ? {} : { useSkill }), extraSkillPaths };
}

/** The session a verb opens: its workspace, --config and the skill flags as parsed (never re-read from argv). */
export function sessionOptionsFrom(
  command: Command,
  flags: SessionFlags,
  workspace: string | undefined,
): OpenSessionOptions {
  if (!workspace) {
    throw new SkillgateError(
      "USAGE",
      "missing --workspace <dir>: name the workspace folder, e.g. --workspace ./ws",
    );
  }
  const { useSkill, extraSkillPaths } = skillFlagsOf(command);
  return {
    workspace,
    configFile: flags.config,
    flags: { ...(useSkill === undefined ? {} : { useSkill }), extraSkillPaths },
  };
}

/** Files below which an init copy is quick enough to stay silent. */
const LARGE_COPY_FILES = 200;

/** Init copy progress on stderr for large copies only, throttled (a line at most every 500 ms, plus the last one). */
export function initProgressPrinter(write: (text: string) => void): (progress: InitProgress) => void {
  let last = 0;
  return (progress) => {
    if (progress.total < LARGE_COPY_FILES) return;
    const now = Date.now();
    if (progress.copied < progress.total && now - last < 500) return;
    last = now;
    write(`init: copied ${progress.copied}/${progress.total} skill files`);
  };
}
