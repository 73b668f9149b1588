// `skillgate init`: copies the skill pack (+ extra paths) into <ws>/.ucagent/skills, the stage guides into <ws>/guide_doc, and writes runtime_config.json.
import { mkdir, realpath, stat } from "node:fs/promises";
import type { SkillgateConfig } from "../config/index.js";
import { bundledPackRoot, workspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { copyPack, syncGuides } from "./init-copy.js";
import type { InitManifest, InitOptions, InitReport, PackReport } from "./init-types.js";
import { withWorkspaceLock } from "./lock.js";
import { type CopyManifest, readManifest } from "./manifest.js";
import { findGuideDir } from "./plan.js";
import { buildRuntimeConfig } from "./runtime-config.js";
import { writeFileAtomic } from "./safe-write.js";

export type { GuideReport, InitManifest, InitOptions, InitProgress, InitReport } from "./init-types.js";

/** The pack folder init would copy, or null when it does not exist (only an error when skills are enabled). */
async function packFolderOrNull(config: SkillgateConfig): Promise<string | null> {
  const pack = config.skill.pack_path ?? bundledPackRoot();
  const real = await realpath(pack).catch(() => null);
  return real !== null && (await stat(real)).isDirectory() ? real : null;
}

export async function initWorkspace(options: InitOptions): Promise<InitReport> {
  const paths = workspacePaths(options.workspace);
  const now = (options.now ?? (() => new Date()))();
  const existing = await stat(paths.root).catch(() => null);
  if (existing && !existing.isDirectory()) {
    throw new SkillgateError(
      "PATH_NOT_FOUND",
      `workspace ${paths.root} is a file, not a folder; give a folder path (it is created if missing)`,
      { path: paths.root },
    );
  }
  await mkdir(paths.skillgateDir, { recursive: true });
  return withWorkspaceLock(paths, async () => {
    const skillsEnabled = options.config.skill.use_skill;
    const previous = (await readManifest(paths, { replacing: true })) as InitManifest | null;
    const packed = skillsEnabled ? await copyPack(paths, options.config, options.onProgress, now) : null;
    const copy: PackReport = packed?.report ?? {
      skillsDir: paths.skillsDir,
      packPath: null,
      extraPaths: [],
      skills: [],
      excluded: [],
      files: 0,
      written: 0,
      unchanged: 0,
      removed: 0,
      warnings: [],
    };
    const packFolder = copy.packPath ?? (await packFolderOrNull(options.config));
    const guideSource = packFolder ? await findGuideDir(packFolder) : null;
    const guides = await syncGuides(paths, guideSource, previous?.guides ?? {}, copy.warnings);
    // Skills disabled: the skill copy and its records stay as the last enabled init left them.
    const base: CopyManifest | null = packed?.manifest ?? previous;
    if (base !== null || guides.report.files.length > 0) {
      const manifest: InitManifest = {
        ...(base ?? { schema_version: 1, pack_path: null, extra_paths: [], skills: [], files: {} }),
        generated_at: now.toISOString(),
        guide_path: guideSource,
        guides: guides.entries,
      };
      await writeFileAtomic(paths.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    const runtimeConfig = buildRuntimeConfig(paths, options.config, {
      skillsEnabled,
      packPath: copy.packPath,
      now,
    });
    await writeFileAtomic(paths.runtimeConfig, `${JSON.stringify(runtimeConfig, null, 2)}\n`);
    return {
      workspace: paths.root,
      skillsEnabled,
      ...copy,
      guides: guides.report,
      runtimeConfig,
      runtimeConfigFile: paths.runtimeConfig,
      manifestFile: paths.manifest,
    };
  });
}
