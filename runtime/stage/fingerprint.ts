// Fingerprints a stage's output files (size + mtime + sha256 per file) so a Check only counts for the files it saw.
import { createHash } from "node:crypto";
import { lstat, readdir } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { RuntimeConfig } from "../contracts/index.js";
import { resolveWorkspacePlaceholders, sha256File } from "../workspace/index.js";

export interface OutputFingerprint {
  /** sha256 over every entry; equal fingerprints mean unchanged outputs. */
  hash: string;
  /** Shown path → "size:mtimeMs:sha256", "missing" or "folder". */
  files: Record<string, string>;
}

const MAX_FILES = 5000;

export async function fingerprintOutputs(
  outputFiles: string[],
  runtime: Pick<RuntimeConfig, "OUT" | "DUT" | "workspace">,
  workspace: string,
): Promise<OutputFingerprint> {
  const files: Record<string, string> = {};
  for (const raw of outputFiles) {
    const expanded = resolveWorkspacePlaceholders(raw, runtime);
    const absolute = isAbsolute(expanded) ? expanded : resolve(workspace, expanded);
    await addPath(absolute, workspace, files);
  }
  const hash = createHash("sha256");
  for (const key of Object.keys(files).sort()) hash.update(`${key}\0${files[key]}\n`);
  return { hash: hash.digest("hex"), files };
}

async function addPath(absolute: string, workspace: string, files: Record<string, string>): Promise<void> {
  if (Object.keys(files).length >= MAX_FILES) return;
  const shown = show(absolute, workspace);
  const info = await lstat(absolute).catch(() => null);
  if (!info) {
    files[shown] = "missing";
    return;
  }
  if (info.isDirectory()) {
    files[shown] = "folder";
    const entries = await readdir(absolute).catch(() => [] as string[]);
    for (const entry of entries.sort()) await addPath(join(absolute, entry), workspace, files);
    return;
  }
  if (!info.isFile()) {
    files[shown] = `other:${info.mtimeMs}`;
    return;
  }
  files[shown] = `${info.size}:${info.mtimeMs}:${await sha256File(absolute)}`;
}

/** Shown paths of entries that differ between two fingerprints (added, removed or changed). */
export function changedOutputs(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k] && after[k] !== "folder").sort();
}

function show(absolute: string, workspace: string): string {
  const rel = relative(workspace, absolute);
  return rel.length > 0 && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : absolute;
}
