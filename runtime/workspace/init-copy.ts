// The two copies init makes: the skill pack (+ extra paths) into .ucagent/skills, the stage guides into guide_doc.
import { lstat, mkdir, readdir, realpath, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SkillgateConfig } from "../config/index.js";
import { bundledPackRoot, type WorkspacePaths } from "../contracts/index.js";
import { sha256File } from "./hash.js";
import {
  PARALLEL_COPIES,
  prune,
  READ_ONLY_DIR,
  requireFolder,
  setFolderModes,
  syncFile,
  WRITABLE_DIR,
} from "./init-files.js";
import type { GuideReport, InitOptions, PackReport } from "./init-types.js";
import type { CopyManifest, ManifestEntry } from "./manifest.js";
import { GUIDE_DIR_NAME, planCopy, planGuides } from "./plan.js";

export async function copyPack(
  paths: WorkspacePaths,
  config: SkillgateConfig,
  onProgress: InitOptions["onProgress"],
  now: Date,
): Promise<{ report: PackReport; manifest: CopyManifest }> {
  const packPath = await requireFolder(
    config.skill.pack_path ?? bundledPackRoot(),
    "skill pack",
    config.skill.pack_path !== undefined
      ? "set skill.pack_path to a folder of skills, or remove it to use the bundled pack"
      : "the skillgate install is incomplete; reinstall skillgate or set skill.pack_path",
  );
  const extraPaths: string[] = [];
  for (const extra of config.skill.extra_skill_path) {
    extraPaths.push(
      await requireFolder(
        extra,
        "extra skill path",
        "fix the path in skill.extra_skill_path (or --extra-skill-path) or remove it",
      ),
    );
  }
  const plan = await planCopy({
    packRoot: packPath,
    extraPaths,
    enable: config.skill.enable_skill_list,
    disable: config.skill.disable_skill_list,
  });

  await mkdir(paths.skillsDir, { recursive: true });
  // Copies are read-only; open the folders again so files can be replaced and pruned.
  await setFolderModes(paths.skillsDir, WRITABLE_DIR);
  const planned = new Set(plan.files.map((file) => file.rel));
  const removed = await prune(paths.skillsDir, planned);

  const entries: Record<string, ManifestEntry> = {};
  let written = 0;
  let done = 0;
  let next = 0;
  const total = plan.files.length;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < total; index = next++) {
      const file = plan.files[index]!;
      const result = await syncFile(file, paths.skillsDir);
      entries[file.rel] = result.entry;
      if (result.written) written++;
      done++;
      onProgress?.({ copied: done, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_COPIES, Math.max(1, total)) }, worker));
  await setFolderModes(paths.skillsDir, READ_ONLY_DIR);

  const sortedEntries: Record<string, ManifestEntry> = {};
  for (const rel of [...planned].sort()) sortedEntries[rel] = entries[rel]!;
  const manifest: CopyManifest = {
    schema_version: 1,
    generated_at: now.toISOString(),
    pack_path: packPath,
    extra_paths: extraPaths,
    skills: plan.skills,
    files: sortedEntries,
  };
  return {
    manifest,
    report: {
      skillsDir: paths.skillsDir,
      packPath,
      extraPaths,
      skills: plan.skills,
      excluded: plan.excluded,
      files: total,
      written,
      unchanged: total - written,
      removed,
      warnings: plan.warnings,
    },
  };
}

/** Removes a file of <ws>/guide_doc and the folders it leaves empty (never the guide folder itself). */
async function removeGuideFile(guideRoot: string, workspace: string, rel: string): Promise<boolean> {
  const target = join(workspace, ...rel.split("/"));
  const info = await lstat(target).catch(() => null);
  if (!info) return false;
  await rm(target, { recursive: true, force: true });
  for (let dir = dirname(target); dir.startsWith(`${guideRoot}/`); dir = dirname(dir)) {
    const left = await readdir(dir).catch(() => null);
    if (left === null || left.length > 0) break;
    await rmdir(dir).catch(() => undefined);
  }
  return true;
}

/**
 * Mirrors the pack's guide folder into <ws>/guide_doc: guides are not skills, so this runs with skills enabled or
 * disabled. Files are refreshed when their content changed and made read-only like the skill copy (the folder stays
 * writable so the workspace can be deleted); files recorded by an earlier init that left the source are pruned;
 * files the agent added itself are left alone.
 */
export async function syncGuides(
  paths: WorkspacePaths,
  guideSource: string | null,
  previous: Record<string, ManifestEntry>,
  warnings: string[],
): Promise<{ report: GuideReport; entries: Record<string, ManifestEntry> }> {
  const guideRoot = join(paths.root, GUIDE_DIR_NAME);
  const planned = guideSource ? await planGuides(guideSource, warnings) : [];
  const entries: Record<string, ManifestEntry> = {};
  let written = 0;
  let removed = 0;
  const sameFolder =
    guideSource !== null &&
    (await realpath(guideRoot).catch(() => null)) === (await realpath(guideSource).catch(() => ""));
  if (sameFolder) {
    // The workspace is the pack's own checkout: its guides are already in place.
    for (const file of planned) {
      entries[file.rel] = {
        sha256: await sha256File(file.source),
        size: (await stat(file.source)).size,
        source: file.source,
      };
    }
  } else {
    if (planned.length > 0) {
      const existing = await lstat(guideRoot).catch(() => null);
      // A symlink or file in its place would send the copies elsewhere: replace it with a real folder.
      if (existing && !existing.isDirectory()) await rm(guideRoot, { force: true });
      await mkdir(guideRoot, { recursive: true, mode: WRITABLE_DIR });
    }
    const keep = new Set(planned.map((file) => file.rel));
    for (const rel of Object.keys(previous).sort()) {
      if (
        !keep.has(rel) &&
        rel.startsWith(`${GUIDE_DIR_NAME}/`) &&
        (await removeGuideFile(guideRoot, paths.root, rel))
      )
        removed++;
    }
    for (const file of planned) {
      const result = await syncFile(file, paths.root);
      entries[file.rel] = result.entry;
      if (result.written) written++;
    }
  }
  return {
    entries,
    report: {
      source: guideSource,
      dir: guideRoot,
      files: planned.map((file) => file.rel),
      written,
      removed,
    },
  };
}
