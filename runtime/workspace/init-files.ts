// File mechanics of init: read-only modes, synced copies that skip unchanged files, pruning what left the source.
import { chmod, lstat, mkdir, readdir, readFile, realpath, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { SkillgateError } from "../errors.js";
import { sha256Bytes, sha256File } from "./hash.js";
import type { ManifestEntry } from "./manifest.js";
import type { PlannedFile } from "./plan.js";
import { writeFileAtomic } from "./safe-write.js";

export const READ_ONLY_FILE = 0o444;
export const READ_ONLY_EXECUTABLE = 0o555;
export const READ_ONLY_DIR = 0o555;
export const WRITABLE_DIR = 0o755;
export const PARALLEL_COPIES = 8;

export async function requireFolder(path: string, what: string, fix: string): Promise<string> {
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
export async function foldersBottomUp(root: string): Promise<string[]> {
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

export async function setFolderModes(root: string, mode: number): Promise<void> {
  for (const dir of await foldersBottomUp(root)) await chmod(dir, mode);
}

export async function existingFileHash(path: string): Promise<string | null> {
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
export async function syncFile(
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
  // Replaced atomically, so a script running from the old copy never sees a half-written file.
  const bytes = await readFile(file.source);
  await writeFileAtomic(target, bytes, { mode, sync: false });
  return { entry: { sha256: sha256Bytes(bytes), size: bytes.length, source: file.source }, written: true };
}

/** Deletes files and folders of the copy that are not planned; returns the number of files removed. */
export async function prune(skillsDir: string, planned: Set<string>): Promise<number> {
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

export async function countFiles(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    count += entry.isDirectory() ? await countFiles(join(dir, entry.name)) : 1;
  }
  return count;
}
