// `skillgate init`: copies the skill pack (+ extra paths) into <ws>/.ucagent/skills, the stage guides into <ws>/guide_doc, and writes runtime_config.json.
import { randomBytes } from "node:crypto";
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import type { RuntimeConfig, SkillgateConfig } from "../config/index.js";
import { bundledPackRoot, type WorkspacePaths, workspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { writeFileAtomic } from "./atomic.js";
import { sha256File } from "./hash.js";
import { withWorkspaceLock } from "./lock.js";
import { type CopyManifest, type ManifestEntry, readManifest } from "./manifest.js";
import { findGuideDir, GUIDE_DIR_NAME, type PlannedFile, planCopy, planGuides } from "./plan.js";
import { buildRuntimeConfig } from "./runtime-config.js";

export interface InitProgress {
  copied: number;
  total: number;
}

export interface InitOptions {
  workspace: string;
  config: SkillgateConfig;
  onProgress?: (progress: InitProgress) => void;
  now?: () => Date;
}

/** What init did to <ws>/guide_doc (stage guides are copied whether skills are enabled or not). */
export interface GuideReport {
  /** The pack's guide folder that was copied; null when the pack has none. */
  source: string | null;
  /** <ws>/guide_doc */
  dir: string;
  /** Workspace-relative guide files now in the workspace ("guide_doc/..."), sorted. */
  files: string[];
  /** Files (re)written this time. */
  written: number;
  /** Files removed because they left the source. */
  removed: number;
}

/** The manifest as init writes it: the copy manifest plus the guides (keyed workspace-relative). */
export interface InitManifest extends CopyManifest {
  guide_path?: string | null;
  guides?: Record<string, ManifestEntry>;
}

export interface InitReport {
  workspace: string;
  skillsEnabled: boolean;
  skillsDir: string;
  /** Pack that was copied; null when skills are disabled. */
  packPath: string | null;
  extraPaths: string[];
  /** Skill ids copied. */
  skills: string[];
  /** Skill ids left out by enable_skill_list / disable_skill_list. */
  excluded: string[];
  /** Files in the copy. */
  files: number;
  /** Files (re)written this time. */
  written: number;
  /** Files already up to date. */
  unchanged: number;
  /** Files pruned because they left the source (or were added to the copy by hand). */
  removed: number;
  warnings: string[];
  guides: GuideReport;
  runtimeConfig: RuntimeConfig;
  runtimeConfigFile: string;
  manifestFile: string;
}

const READ_ONLY_FILE = 0o444;
const READ_ONLY_EXECUTABLE = 0o555;
const READ_ONLY_DIR = 0o555;
const WRITABLE_DIR = 0o755;
const PARALLEL_COPIES = 8;

async function requireFolder(path: string, what: string, fix: string): Promise<string> {
  try {
    const real = await realpath(path);
    if (!(await stat(real)).isDirectory()) {
      throw new SkillgateError("PATH_NOT_FOUND", `${what} ${path} is not a folder; ${fix}`, { path });
    }
    return real;
  } catch (error) {
    if (error instanceof SkillgateError) throw error;
    throw new SkillgateError("PATH_NOT_FOUND", `${what} ${path} does not exist; ${fix}`, { path });
  }
}

/** Every folder of the tree, children before parents. */
async function foldersBottomUp(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await visit(join(dir, entry.name));
    }
    out.push(dir);
  };
  await visit(root);
  return out;
}

async function setFolderModes(root: string, mode: number): Promise<void> {
  for (const dir of await foldersBottomUp(root)) await chmod(dir, mode);
}

async function existingFileHash(path: string): Promise<string | null> {
  try {
    const info = await lstat(path);
    if (info.isFile()) return await sha256File(path);
    await rm(path, { recursive: true, force: true });
    return null;
  } catch {
    return null;
  }
}

/** Copies one file unless the copy already has the same content; returns what the copy now holds. */
async function syncFile(
  file: PlannedFile,
  skillsDir: string,
): Promise<{ entry: ManifestEntry; written: boolean }> {
  const target = join(skillsDir, ...file.rel.split("/"));
  await mkdir(dirname(target), { recursive: true, mode: WRITABLE_DIR });
  const sourceInfo = await stat(file.source);
  const mode = sourceInfo.mode & 0o111 ? READ_ONLY_EXECUTABLE : READ_ONLY_FILE;
  const [sourceHash, targetHash] = await Promise.all([sha256File(file.source), existingFileHash(target)]);
  if (sourceHash === targetHash) {
    const targetInfo = await stat(target);
    if ((targetInfo.mode & 0o777) !== mode) await chmod(target, mode);
    return { entry: { sha256: sourceHash, size: targetInfo.size, source: file.source }, written: false };
  }
  // Rename over the old copy so a script running from it never sees a half-written file.
  const temp = join(dirname(target), `.${randomBytes(6).toString("hex")}.skillgate-copy`);
  try {
    await copyFile(file.source, temp);
    await chmod(temp, mode);
    const writtenHash = await sha256File(temp);
    const size = (await stat(temp)).size;
    await rename(temp, target);
    return { entry: { sha256: writtenHash, size, source: file.source }, written: true };
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Deletes files and folders of the copy that are not planned; returns the number of files removed. */
async function prune(skillsDir: string, planned: Set<string>): Promise<number> {
  const neededDirs = new Set<string>([""]);
  for (const rel of planned) {
    for (let dir = dirname(rel); dir !== "."; dir = dirname(dir)) neededDirs.add(dir);
  }
  let removed = 0;
  const visit = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(skillsDir, rel), { withFileTypes: true })) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const full = join(skillsDir, childRel);
      if (entry.isDirectory()) {
        if (neededDirs.has(childRel)) await visit(childRel);
        else {
          removed += await countFiles(full);
          await rm(full, { recursive: true, force: true });
        }
      } else if (!planned.has(childRel)) {
        await rm(full, { force: true });
        removed++;
      }
    }
  };
  await visit("");
  return removed;
}

async function countFiles(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    count += entry.isDirectory() ? await countFiles(join(dir, entry.name)) : 1;
  }
  return count;
}

async function copyPack(
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

type PackReport = Omit<
  InitReport,
  "runtimeConfig" | "runtimeConfigFile" | "manifestFile" | "workspace" | "skillsEnabled" | "guides"
>;

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
async function syncGuides(
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
    const previous = (await readManifest(paths)) as InitManifest | null;
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
