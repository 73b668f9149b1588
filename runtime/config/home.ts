// Locates skillgate's per-user folder (user config, ledger signing key, runner caches) outside any workspace.
import { homedir } from "node:os";
import { join } from "node:path";

/** `$SKILLGATE_HOME` when set (tests point it at a temp folder), else `~/.skillgate`. */
export function skillgateHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.SKILLGATE_HOME && env.SKILLGATE_HOME.length > 0
    ? env.SKILLGATE_HOME
    : join(homedir(), ".skillgate");
}

export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(skillgateHome(env), "config.yaml");
}
