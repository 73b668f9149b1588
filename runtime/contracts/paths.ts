// Where everything lives inside a workspace's .ucagent/ state folder.
import { join, resolve } from "node:path";

export interface WorkspacePaths {
  /** Absolute workspace root (the agent's working folder). */
  root: string;
  /** <ws>/.ucagent */
  stateDir: string;
  /** <ws>/.ucagent/skills: the copied pack (extra skills under ext/). */
  skillsDir: string;
  /** <ws>/.ucagent/runtime_config.json */
  runtimeConfig: string;
  /** <ws>/.ucagent/setting.yaml: workspace config layer. */
  settingFile: string;
  /** <ws>/.ucagent/skillgate/: skillgate's own state. */
  skillgateDir: string;
  /** Per-file content hashes of the copied pack, written by init. */
  manifest: string;
  /** Append-only evidence ledger (JSON lines). */
  ledger: string;
  /** Stage progress state (current stage, check results, validated usage). */
  progress: string;
  /** Lock target serialising state writes between processes. */
  lockFile: string;
}

export function workspacePaths(workspace: string): WorkspacePaths {
  const root = resolve(workspace);
  const stateDir = join(root, ".ucagent");
  const skillgateDir = join(stateDir, "skillgate");
  return {
    root,
    stateDir,
    skillsDir: join(stateDir, "skills"),
    runtimeConfig: join(stateDir, "runtime_config.json"),
    settingFile: join(stateDir, "setting.yaml"),
    skillgateDir,
    manifest: join(skillgateDir, "manifest.json"),
    ledger: join(skillgateDir, "ledger.jsonl"),
    progress: join(skillgateDir, "progress.json"),
    lockFile: join(skillgateDir, "state.lock"),
  };
}
