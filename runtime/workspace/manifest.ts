// The init manifest: a SHA-256 per copied file of <ws>/.ucagent/skills, read back to detect edits.

import type { WorkspacePaths } from "../contracts/index.js";
import { readSmallFile, refusalReason } from "../contracts/index.js";

export interface ManifestEntry {
  sha256: string;
  size: number;
  /** Absolute source file it was copied from. */
  source: string;
}

export interface CopyManifest {
  schema_version: 1;
  generated_at: string;
  pack_path: string | null;
  extra_paths: string[];
  /** Skill ids copied (relative to the skills folder). */
  skills: string[];
  /** Keyed by path relative to the skills folder, "/" separated. */
  files: Record<string, ManifestEntry>;
}

/**
 * The manifest, or null when missing or unreadable (callers then ask for a re-init). A FIFO, socket or device there,
 * or a file over the state-file limit, is refused (NOT_REGULAR_FILE, FILE_TOO_LARGE): it was planted, and "missing"
 * would hide where; init passes `replacing` and writes a new manifest over it.
 */
export async function readManifest(
  paths: Pick<WorkspacePaths, "manifest">,
  options: { replacing?: boolean } = {},
): Promise<CopyManifest | null> {
  let text: string;
  try {
    text = await readSmallFile(paths.manifest);
  } catch (error) {
    if (refusalReason(error) !== null && !options.replacing) throw error;
    return null;
  }
  try {
    const data = JSON.parse(text) as Partial<CopyManifest>;
    if (data?.schema_version !== 1 || typeof data.files !== "object" || data.files === null) return null;
    return data as CopyManifest;
  } catch {
    return null;
  }
}
