// Run-time check that a copied file still has the content recorded by init (cheap for unchanged files).
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { insideRelative, type WorkspacePaths } from "../contracts/index.js";
import { sha256FileOfStat } from "./hash.js";
import { type CopyManifest, readManifest } from "./manifest.js";

export type VerifyResult = { ok: true } | { ok: false; message: string };

type VerifyPaths = Pick<WorkspacePaths, "root" | "skillsDir" | "manifest">;

const MAX_CACHED_HASHES = 2_000;
/** sha256 by (path, inode, size, mtime, ctime) in nanoseconds: an unchanged file is hashed once. */
const hashCache = new Map<string, string>();
const manifestCache = new Map<string, { key: string; manifest: CopyManifest | null }>();

function statKey(
  path: string,
  info: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint },
): string {
  return `${path}\0${info.ino}\0${info.size}\0${info.mtimeNs}\0${info.ctimeNs}`;
}

async function cachedHash(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  const key = statKey(path, info);
  const hit = hashCache.get(key);
  if (hit) return hit;
  const hash = await sha256FileOfStat(path, info);
  if (hashCache.size >= MAX_CACHED_HASHES) hashCache.delete(hashCache.keys().next().value as string);
  hashCache.set(key, hash);
  return hash;
}

async function cachedManifest(paths: VerifyPaths): Promise<CopyManifest | null> {
  let key: string;
  try {
    key = statKey(paths.manifest, await stat(paths.manifest, { bigint: true }));
  } catch {
    return null;
  }
  const hit = manifestCache.get(paths.manifest);
  if (hit && hit.key === key) return hit.manifest;
  const manifest = await readManifest(paths);
  manifestCache.set(paths.manifest, { key, manifest });
  return manifest;
}

function insideRel(root: string, file: string): string | null {
  const rel = insideRelative(root, file);
  return rel === "" ? null : rel;
}

/**
 * Is the copied file what init recorded? `trusted` (skill-relative path → sha256, from the signed ledger) wins over
 * the editable manifest file, so editing a script together with its manifest entry does not pass.
 */
export async function verifyCopiedFile(
  paths: VerifyPaths,
  absolutePath: string,
  trusted?: Record<string, string> | null,
  /** sha256 of the bytes the caller read and will use (hooks.ts): compared instead of hashing the path again. */
  actual?: string,
): Promise<VerifyResult> {
  const reinit = `re-run: skillgate init ${paths.root}`;
  const file = resolve(absolutePath);
  let rel = insideRel(paths.skillsDir, file);
  if (rel === null) {
    // The caller may pass a realpath while skillsDir goes through a symlinked folder (or the reverse).
    const [realRoot, realFile] = await Promise.all([
      realpath(paths.skillsDir).catch(() => paths.skillsDir),
      realpath(file).catch(() => file),
    ]);
    rel = insideRel(realRoot, realFile);
  }
  if (rel === null) {
    return {
      ok: false,
      message: `${file} is not inside the skill copy ${paths.skillsDir}; only files copied by init can be run; ${reinit}`,
    };
  }
  let entry: { sha256: string } | undefined;
  const source = trusted
    ? "the manifest init recorded in the evidence ledger"
    : `the init manifest ${paths.manifest}`;
  if (trusted) {
    const known = trusted[rel];
    entry = known !== undefined ? { sha256: known } : undefined;
  } else {
    const manifest = await cachedManifest(paths);
    if (!manifest) return { ok: false, message: `no valid init manifest at ${paths.manifest}; ${reinit}` };
    entry = manifest.files[rel];
  }
  if (!entry) return { ok: false, message: `script ${rel} is not in ${source}; ${reinit}` };
  let current: string;
  try {
    current = actual ?? (await cachedHash(file));
  } catch {
    return {
      ok: false,
      message: `script ${rel} is missing from the skill copy ${paths.skillsDir}; ${reinit}`,
    };
  }
  if (current !== entry.sha256) {
    return {
      ok: false,
      message: `script ${rel} was modified after init (hash ${current.slice(0, 12)} != ${entry.sha256.slice(0, 12)}); ${reinit}`,
    };
  }
  return { ok: true };
}
