// Fingerprints a stage's output files through the safe-file module so a Check only counts for the files it saw.
import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import type { RuntimeConfig } from "../config/index.js";
import { shownBelow } from "../contracts/index.js";
import { isSkillgateError } from "../errors.js";
import {
  type EntryKind,
  hashWorkspaceFile,
  listWorkspaceDir,
  resolveWorkspacePlaceholders,
  statWorkspacePathIfExists,
} from "../workspace/index.js";

export interface OutputFingerprint {
  /** sha256 over every entry; equal fingerprints mean unchanged outputs. */
  hash: string;
  /**
   * Shown path → "size:mtimeMs:sha256", "missing", "folder", or for what is not hashed: "not-regular:<kind>",
   * "outside", "too-large:size:mtimeMs", "unreadable:<code>".
   */
  files: Record<string, string>;
  /** One line per output that could not be hashed, saying why and the fix (shown to the agent as warnings). */
  problems: string[];
}

const MAX_FILES = 5000;
/** Larger outputs are compared by size and time only: hashing them on every call would stall the tools. */
export const FINGERPRINT_MAX_BYTES = 64 * 1024 * 1024;

export async function fingerprintOutputs(
  outputFiles: string[],
  runtime: Pick<RuntimeConfig, "OUT" | "DUT" | "workspace">,
  workspace: string,
): Promise<OutputFingerprint> {
  const out: OutputFingerprint = { hash: "", files: {}, problems: [] };
  for (const raw of outputFiles) {
    if (Object.keys(out.files).length >= MAX_FILES) break;
    const expanded = resolveWorkspacePlaceholders(raw, runtime);
    const absolute = isAbsolute(expanded) ? expanded : resolve(workspace, expanded);
    await addOutput(absolute, workspace, out);
  }
  const hash = createHash("sha256");
  for (const key of Object.keys(out.files).sort()) hash.update(`${key}\0${out.files[key]}\n`);
  out.hash = hash.digest("hex");
  return out;
}

async function addOutput(absolute: string, workspace: string, out: OutputFingerprint): Promise<void> {
  const shown = show(absolute, workspace);
  let info: Awaited<ReturnType<typeof statWorkspacePathIfExists>>;
  try {
    info = await statWorkspacePathIfExists(workspace, absolute, { follow: false, allowAbsolute: true });
  } catch (error) {
    refuse(out, shown, error);
    return;
  }
  if (!info) {
    out.files[shown] = "missing";
    return;
  }
  if (info.kind !== "directory") {
    await addEntry(absolute, shown, info.kind, workspace, out);
    return;
  }
  out.files[shown] = "folder";
  let listed: Awaited<ReturnType<typeof listWorkspaceDir>>;
  try {
    listed = await listWorkspaceDir(workspace, absolute, {
      recursive: true,
      allowAbsolute: true,
      maxEntries: MAX_FILES,
    });
  } catch (error) {
    refuse(out, shown, error);
    return;
  }
  for (const entry of listed.entries) {
    if (Object.keys(out.files).length >= MAX_FILES) return;
    const child = `${shown}/${entry.path}`;
    if (entry.kind === "directory") out.files[child] = "folder";
    else await addEntry(`${absolute}/${entry.path}`, child, entry.kind, workspace, out);
  }
}

/** One non-folder entry: a regular file (or a symlink to one inside the workspace) is hashed; anything else is named. */
async function addEntry(
  absolute: string,
  shown: string,
  kind: EntryKind,
  workspace: string,
  out: OutputFingerprint,
): Promise<void> {
  if (kind !== "file" && kind !== "symlink") {
    out.files[shown] = `not-regular:${kind}`;
    out.problems.push(
      `output ${shown} is a ${kind}, not a regular file: it was not read or fingerprinted; write a regular file there`,
    );
    return;
  }
  try {
    const hashed = await hashWorkspaceFile(workspace, absolute, {
      maxBytes: FINGERPRINT_MAX_BYTES,
      allowAbsolute: true,
      follow: true,
    });
    out.files[shown] = `${hashed.size}:${hashed.mtimeMs}:${hashed.sha256}`;
  } catch (error) {
    refuse(out, shown, error);
  }
}

function refuse(out: OutputFingerprint, shown: string, error: unknown): void {
  const code = isSkillgateError(error) ? error.code : "FILE_IO_FAILED";
  const details = isSkillgateError(error) ? error.details : {};
  switch (code) {
    case "PATH_OUTSIDE_WORKSPACE":
      out.files[shown] = "outside";
      out.problems.push(
        details.reason === "escape"
          ? `output ${shown} is a link that leads outside the workspace: it was not read or fingerprinted; replace the link with the file itself`
          : `output ${shown} is outside the workspace: it was not read or fingerprinted (fix output_files in the stage config)`,
      );
      return;
    case "NOT_REGULAR_FILE":
      out.files[shown] = `not-regular:${String(details.kind)}`;
      out.problems.push(
        `output ${shown} links to a ${String(details.kind)}, not a regular file: it was not read or fingerprinted; write a regular file there`,
      );
      return;
    case "FILE_TOO_LARGE":
      out.files[shown] = `too-large:${String(details.size)}`;
      out.problems.push(
        `output ${shown} is over the ${FINGERPRINT_MAX_BYTES}-byte fingerprint limit: only its size is compared`,
      );
      return;
    case "FILE_NOT_FOUND":
      out.files[shown] = "missing";
      return;
    default:
      out.files[shown] = `unreadable:${String(details.errno ?? code)}`;
      out.problems.push(
        `output ${shown} could not be read (${String(details.errno ?? code)}): it was not fingerprinted; check its owner and mode`,
      );
  }
}

/** Shown paths of entries that differ between two fingerprints (added, removed or changed). */
export function changedOutputs(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k] && after[k] !== "folder").sort();
}

function show(absolute: string, workspace: string): string {
  return shownBelow(workspace, absolute);
}
