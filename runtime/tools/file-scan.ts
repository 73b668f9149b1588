// Walking and sniffing workspace files for the listing/search tools, always through the safe file layer.
import { SkillgateError } from "../errors.js";
import { listWorkspaceDir, readWorkspaceFilePrefix, type SafeListEntry } from "../workspace/index.js";
import { fnmatchRegExp } from "./file-common.js";

/** Most entries one listing/search walks. */
export const MAX_WALK_ENTRIES = 5000;

export interface WalkedEntry extends SafeListEntry {
  /** Workspace-relative path ("/"-separated). */
  rel: string;
}

/** Entries below a workspace folder (recursive, depth-bounded), with workspace-relative paths. */
export async function walkWorkspace(
  root: string,
  dir: string,
  maxDepth = 20,
): Promise<{ base: string; entries: WalkedEntry[]; truncated: boolean }> {
  const listed = await listWorkspaceDir(root, dir === "" ? "." : dir, {
    recursive: true,
    maxDepth,
    maxEntries: MAX_WALK_ENTRIES,
  });
  const base = listed.path;
  return {
    base,
    truncated: listed.truncated,
    entries: listed.entries.map((entry) => ({ ...entry, rel: base ? `${base}/${entry.path}` : entry.path })),
  };
}

/** UCAgent's match_pattern_list: fnmatch for patterns with '*', substring otherwise. */
export function matchPatternList(name: string, patterns: string[]): boolean {
  return patterns.some((pattern) =>
    pattern.includes("*") ? fnmatchRegExp(pattern).test(name) : name.includes(pattern),
  );
}

/** True when some path segment (below the workspace) starts with "." */
export function hasHiddenSegment(rel: string): boolean {
  return rel.split("/").some((segment) => segment.startsWith("."));
}

/** Text = the first 4 KiB decode as UTF-8 (an incomplete last character allowed) and hold no NUL byte. */
export async function isTextFile(root: string, rel: string): Promise<boolean> {
  try {
    const { bytes } = await readWorkspaceFilePrefix(root, rel, 4096);
    if (bytes.includes(0)) return false;
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch (error) {
    if (error instanceof SkillgateError || error instanceof TypeError) return false;
    throw error;
  }
}
