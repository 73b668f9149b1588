// The init manifest: a SHA-256 per copied file of <ws>/.ucagent/skills, read back to detect edits.

import type { WorkspacePaths } from "../contracts/index.js";
import { readSmallFile } from "./read-small.js";

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

/** The manifest, or null when missing or unreadable (callers then ask for a re-init). */
export async function readManifest(paths: Pick<WorkspacePaths, "manifest">): Promise<CopyManifest | null> {
  try {
    const data = JSON.parse(await readSmallFile(paths.manifest)) as Partial<CopyManifest>;
    if (data?.schema_version !== 1 || typeof data.files !== "object" || data.files === null) return null;
    return data as CopyManifest;
  } catch {
    return null;
  }
}
