// Workspace/config/skill flags shared by the verbs that open a session (call, serve, status).
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
  /** The skill flags in the order typed: the loader's rules (last wins, conflicts) need the order. */
  skillArgv?: string[];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function addSessionOptions(command: Command, workspaceRequired = true): Command {
  const skillArgv: string[] = [];
  command.on("option:use-skill", () => skillArgv.push("--use-skill"));
  command.on("option:no-use-skill", () => skillArgv.push("--no-use-skill"));
  command.on("option:extra-skill-path", (path: string) => skillArgv.push("--extra-skill-path", path));
  command.setOptionValue("skillArgv", skillArgv);
  return command
    .option(
      "-w, --workspace <dir>",
      workspaceRequired
        ? "workspace folder (required)"
        : "workspace folder (default: ~/.skillgate/workspaces/default)",
    )
    .option(
      "--config <file>",
      "extra config file layered over ~/.skillgate/config.yaml and <ws>/.ucagent/setting.yaml",
    )
    .option("--use-skill", "turn skill support on (overrides config)")
    .option("--no-use-skill", "turn skill support off (overrides config)")
    .option(
      "--extra-skill-path <path>",
      "extra skill folder copied under skills/ext/ at init (repeatable)",
      collect,
    )
    .option("--json", "print JSON instead of text");
}

/** Passes the skill flags as typed so the loader applies its own rules (last wins, conflict checks). */
export function sessionOptionsFrom(flags: SessionFlags, workspace: string | undefined): OpenSessionOptions {
  if (!workspace) {
    throw new SkillgateError(
      "USAGE",
      "missing --workspace <dir>: name the workspace folder, e.g. --workspace ./ws",
    );
  }
  return { workspace, configFile: flags.config, argvFlags: [...(flags.skillArgv ?? [])] };
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
