// Test workspaces for the stage engine: temp folder, copied fixture skills, config, runtime config, engine factory.

import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigSchema, type SkillgateConfig } from "../../runtime/config/schema.js";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import type { CatalogSnapshot } from "../../runtime/skills/types.js";
import { createStageEngine, type SkillgateStageEngine } from "../../runtime/stage/index.js";
import type { RuntimeConfig } from "../../runtime/tools/types.js";
import { initWorkspace } from "../../runtime/workspace/index.js";
import { type WorkspacePaths, workspacePaths } from "../../runtime/workspace/paths.js";

export const FIXTURE_SKILLS = resolve(import.meta.dirname, "../fixtures/stage/skills");

export interface TestWorkspace {
  root: string;
  home: string;
  paths: WorkspacePaths;
  config: SkillgateConfig;
  runtime: RuntimeConfig;
  skillsEnabled: boolean;
  catalog(): CatalogSnapshot | null;
  engine(extra?: { resetCheckOnStart?: boolean }): Promise<SkillgateStageEngine>;
  cleanup(): Promise<void>;
}

export interface WorkspaceOptions {
  stages: unknown[];
  skillsEnabled?: boolean;
  generalSkills?: string[];
}

export async function makeWorkspace(options: WorkspaceOptions): Promise<TestWorkspace> {
  const base = await mkdtemp(join(tmpdir(), "skillgate-stage-"));
  const root = join(base, "ws");
  const home = join(base, "home");
  await mkdir(join(root, "out"), { recursive: true });
  await mkdir(home, { recursive: true });
  const paths = workspacePaths(root);
  const skillsEnabled = options.skillsEnabled ?? true;
  const config = ConfigSchema.parse({
    stage: options.stages,
    skill: {
      use_skill: skillsEnabled,
      general_skill_list: options.generalSkills ?? [],
      pack_path: FIXTURE_SKILLS,
    },
  });
  // The real init: copies the fixture pack read-only and records the manifest hooks are verified against.
  const { runtimeConfig: runtime } = await initWorkspace({ workspace: root, config });
  const catalog = () =>
    skillsEnabled && existsSync(paths.skillsDir) ? scanSkillRoot(paths.skillsDir) : null;
  return {
    root,
    home,
    paths,
    config,
    runtime,
    skillsEnabled,
    catalog,
    engine: (extra = {}) =>
      createStageEngine({ paths, config, runtime, skillsEnabled, catalog, home, ...extra }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Whole-file read range of a SKILL.md with `lines` lines. */
export function wholeFile(lines: number) {
  return { startLine: 1, endLine: lines, totalLines: lines };
}
