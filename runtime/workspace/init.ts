// `skillgate init`: copies the skill pack (+ extra paths) into <ws>/.ucagent/skills and writes runtime_config.json.
import { randomBytes } from "node:crypto";
import { chmod, copyFile, lstat, mkdir, readdir, realpath, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SkillgateConfig } from "../config/schema.js";
import { SkillgateError } from "../errors.js";
import type { RuntimeConfig } from "../tools/types.js";
import { writeFileAtomic } from "./atomic.js";
import { sha256File } from "./hash.js";
import { withWorkspaceLock } from "./lock.js";
import type { CopyManifest, ManifestEntry } from "./manifest.js";
import { bundledPackRoot } from "./pack-root.js";
import { type WorkspacePaths, workspacePaths } from "./paths.js";
import { type PlannedFile, planCopy } from "./plan.js";
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
): Promise<
  Omit<InitReport, "runtimeConfig" | "runtimeConfigFile" | "manifestFile" | "workspace" | "skillsEnabled">
> {
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
  await writeFileAtomic(paths.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  return {
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
  };
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
    const copy = skillsEnabled
      ? await copyPack(paths, options.config, options.onProgress, now)
      : {
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
      runtimeConfig,
      runtimeConfigFile: paths.runtimeConfig,
      manifestFile: paths.manifest,
    };
  });
}
