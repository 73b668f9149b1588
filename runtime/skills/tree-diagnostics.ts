// The skill tree walker's own diagnostics and checks: the root, folder symlinks that escape it, limits, unreadable folders.
import fs from "node:fs";
import path from "node:path";
import { isInside } from "../contracts/index.js";
import { SKILL_FILE } from "./tree-files.js";
import type { DirEntry } from "./tree-prefetch.js";
import { errorCode } from "./tree-read.js";
import type { Diagnostic } from "./types.js";

/**
 * A folder symlink pointing outside the root, as a warning. Directory symlinks are never followed: one pointing
 * inside the root would list the same skill twice under two ids (and can loop); one pointing outside would escape
 * the root. Only the escape is reported, as it usually means a skill was linked instead of copied.
 */
export function dirSymlinkEscape(dir: string, entry: DirEntry, realRoot: string): Diagnostic | null {
  const link = path.join(dir, entry.name);
  let target: string;
  try {
    if (!fs.statSync(link).isDirectory()) return null;
    target = fs.realpathSync(link);
  } catch {
    return null;
  }
  if (isInside(realRoot, target)) return null;
  return {
    path: link,
    code: "SYMLINK_ESCAPE",
    message: `folder symlink ${link} points outside the skill root to ${target}; not followed — copy that folder into the skill root instead`,
    severity: "warning",
  };
}

/** The skill root's real path, or why it cannot be walked (missing, or not a folder). */
export function resolveRoot(root: string): { realRoot?: string; missing?: Diagnostic } {
  let realRoot: string;
  let stat: fs.Stats;
  try {
    realRoot = fs.realpathSync(root);
  } catch (error) {
    return { missing: rootMissing(root, error) };
  }
  try {
    stat = fs.statSync(realRoot);
  } catch (error) {
    return { realRoot, missing: rootMissing(root, error) };
  }
  if (stat.isDirectory()) return { realRoot };
  return {
    realRoot,
    missing: {
      path: root,
      code: "SKILL_ROOT_MISSING",
      message: `skill root ${root} is not a folder; point the skill root at the folder that holds the skill folders`,
      severity: "error",
    },
  };
}

function rootMissing(root: string, error: unknown): Diagnostic {
  return {
    path: root,
    code: "SKILL_ROOT_MISSING",
    message: `skill root ${root} does not exist (${errorCode(error)}); create it or run "skillgate init" to copy the skill pack into the workspace`,
    severity: "error",
  };
}

export function rootIsSkill(dir: string): Diagnostic {
  return {
    path: path.join(dir, SKILL_FILE),
    code: "ROOT_IS_SKILL",
    message: `the skill root ${dir} itself holds SKILL.md, so it has no id and is not listed; use its parent folder as the skill root`,
    severity: "warning",
  };
}

export function skillLimit(root: string, maxSkills: number): Diagnostic {
  return {
    path: root,
    code: "SKILL_LIMIT",
    message: `more than ${maxSkills} skills under ${root}; the rest were not loaded — split the skill root or raise maxSkills`,
    severity: "warning",
  };
}

export function depthLimit(dir: string, id: string, maxDepth: number): Diagnostic {
  return {
    path: dir,
    code: "DEPTH_LIMIT",
    message: `folder ${id || "."} is at the depth limit (${maxDepth}); its sub-folders were not scanned — move skills higher or raise maxDepth`,
    severity: "warning",
  };
}

export function unreadableDir(dir: string, error: unknown): Diagnostic {
  return {
    path: dir,
    code: "DIR_UNREADABLE",
    message: `cannot list folder ${dir} (${errorCode(error)}); its skills were not loaded — fix the folder permissions`,
    severity: "warning",
  };
}
