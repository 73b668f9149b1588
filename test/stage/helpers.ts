// Test workspaces for the stage engine: temp folder, copied fixture skills, config, runtime config, engine factory.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import type { RuntimeConfig } from "../../runtime/config/index.js";
import type { SkillgateConfig } from "../../runtime/config/schema.js";
import type { ToolResult } from "../../runtime/contracts/index.js";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import type { CatalogSnapshot } from "../../runtime/skills/types.js";
import { createStageEngine, type SkillgateStageEngine } from "../../runtime/stage/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import type { Session } from "../../runtime/tools/types.js";
import { initOverPack, isolateHome, tempRoot } from "../support/workspace.js";

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

/** skill id → sha256 of its hooks.ts, for every fixture skill that has one. */
function fixtureHookDigests(): Record<string, string> {
  const digests: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === "hooks.ts") {
        digests[relative(FIXTURE_SKILLS, dir).split(sep).join("/")] = createHash("sha256")
          .update(readFileSync(path))
          .digest("hex");
      }
    }
  };
  walk(FIXTURE_SKILLS);
  return digests;
}

export async function makeWorkspace(options: WorkspaceOptions): Promise<TestWorkspace> {
  const base = tempRoot("skillgate-stage-");
  const root = base.path("ws");
  const { home } = isolateHome(base.dir);
  await mkdir(join(root, "out"), { recursive: true });
  const paths = workspacePaths(root);
  const skillsEnabled = options.skillsEnabled ?? true;
  // The real init: copies the fixture pack read-only and records the manifest hooks are verified against.
  const {
    config,
    report: { runtimeConfig: runtime },
  } = await initOverPack({
    workspace: root,
    packPath: FIXTURE_SKILLS,
    config: {
      stage: options.stages,
      skill: {
        // The fixture skills' hooks are trusted by the operator of these tests (skill.trusted_hooks).
        trusted_hooks: fixtureHookDigests(),
        use_skill: skillsEnabled,
        general_skill_list: options.generalSkills ?? [],
      },
    },
  });
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
    cleanup: async () => base.cleanup(),
  };
}

/** Calls a tool the way an agent does (callTool: arguments checked, pending warnings attached) on this engine. */
export function callOn(
  ws: TestWorkspace,
  engine: SkillgateStageEngine,
  tool: string,
  args: unknown = {},
): Promise<ToolResult> {
  const session: Session = {
    paths: ws.paths,
    config: ws.config,
    runtime: ws.runtime,
    skillsEnabled: ws.skillsEnabled,
    catalog: ws.catalog,
    engine,
  };
  return callTool(session, tool, args);
}

/** Whole-file read range of a SKILL.md with `lines` lines. */
export function wholeFile(lines: number) {
  return { startLine: 1, endLine: lines, totalLines: lines };
}
