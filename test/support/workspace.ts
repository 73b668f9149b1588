// Shared temp-workspace fixtures: a temp root with cleanup, SKILLGATE_HOME/HOME isolation, init over a skill pack.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigSchema, type SkillgateConfig } from "../../runtime/config/index.js";
import { initWorkspace } from "../../runtime/workspace/index.js";

export { removeTree, type TempRoot, tempRoot } from "./temp-root.js";

export interface IsolatedHome {
  /** The SKILLGATE_HOME folder (created). */
  home: string;
  /** process.env with SKILLGATE_HOME (and HOME when asked) pointing at `home`, for child processes. */
  env: NodeJS.ProcessEnv;
  /** Puts back the variables this process had before (a no-op unless `setProcess` was given). */
  restore(): void;
}

/**
 * A SKILLGATE_HOME of the test's own under `root`, so engineers running tests at once never share
 * /root/.skillgate. `setProcess` also sets it on this process (script runs read the caches' location
 * from there); `home: true` points HOME there too.
 */
export function isolateHome(
  root: string,
  options: { setProcess?: boolean; home?: boolean; extraEnv?: NodeJS.ProcessEnv; create?: boolean } = {},
): IsolatedHome {
  const home = join(root, "home");
  if (options.create ?? true) mkdirSync(home, { recursive: true });
  const vars: NodeJS.ProcessEnv = { SKILLGATE_HOME: home, ...(options.home ? { HOME: home } : {}) };
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  if (options.setProcess) Object.assign(process.env, vars);
  return {
    home,
    env: { ...process.env, ...vars, ...options.extraEnv },
    restore() {
      if (!options.setProcess) return;
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    },
  };
}

export interface InitOverPackOptions {
  workspace: string;
  packPath: string;
  /** skill.extra_skill_path: a hostile or extra skill root copied next to the pack. */
  extraSkillPath?: string;
  /** The rest of the config (stages, exec, skill options); `skill` is merged with the pack paths. */
  config?: Record<string, unknown>;
}

/** The real `skillgate init` of `workspace` over a pack (copied read-only, manifest recorded). */
export async function initOverPack(options: InitOverPackOptions) {
  const rest = options.config ?? {};
  const config: SkillgateConfig = ConfigSchema.parse({
    ...rest,
    skill: {
      ...((rest.skill as Record<string, unknown> | undefined) ?? {}),
      pack_path: options.packPath,
      ...(options.extraSkillPath === undefined ? {} : { extra_skill_path: options.extraSkillPath }),
    },
  });
  const report = await initWorkspace({ workspace: options.workspace, config });
  return { config, report };
}
