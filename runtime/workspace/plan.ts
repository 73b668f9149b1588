// Decides what init copies: skill folders of the pack and extra paths (under ext/), filtered by enable/disable.
import { existsSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { SkillgateError } from "../errors.js";
import { walkTree } from "../walk/index.js";

export interface PlannedFile {
  /** Destination relative to <ws>/.ucagent/skills, "/" separated. */
  rel: string;
  /** Absolute source file. */
  source: string;
}

export interface CopyPlan {
  files: PlannedFile[];
  /** Ids of the skills that will be copied, sorted. */
  skills: string[];
  /** Ids of the skills left out by enable_skill_list / disable_skill_list, sorted. */
  excluded: string[];
  warnings: string[];
}

export interface PlanInput {
  packRoot: string;
  extraPaths: string[];
  enable: string[];
  disable: string[];
}

/** Folders never copied: VCS data, dependency trees and caches that runners rebuild. */
const SKIPPED_NAMES = new Set([".git", ".hg", ".svn", "node_modules", "__pycache__", ".DS_Store"]);
const MAX_DEPTH = 32;

interface TreeListing {
  /** Relative folders (incl. "" for the root) that hold a SKILL.md. */
  skillDirs: string[];
  /** Relative files. */
  files: string[];
}

async function listTree(root: string, warnings: string[]): Promise<TreeListing> {
  const listing: TreeListing = { skillDirs: [], files: [] };
  await walkTree(
    root,
    {
      maxDepth: MAX_DEPTH,
      skip: (entry) => SKIPPED_NAMES.has(entry.name) || entry.name.endsWith(".pyc"),
      onDepthLimit: (entry) =>
        void warnings.push(`${join(root, entry.rel)}: deeper than ${MAX_DEPTH} levels, not copied`),
    },
    (entry) => {
      if (entry.kind === "symlink") {
        warnings.push(
          `${join(root, entry.rel)}: symbolic link not copied (copy the real file into the skill)`,
        );
      } else if (entry.kind === "file") {
        listing.files.push(entry.rel);
        if (entry.name === "SKILL.md") listing.skillDirs.push(entry.depth === 1 ? "" : dirname(entry.rel));
      }
    },
  );
  return listing;
}

interface FoundSkill {
  id: string;
  /** Names the user may use in enable/disable lists. */
  names: string[];
  dir: string;
  files: PlannedFile[];
  origin: string;
}

/** Groups files by their closest skill folder; files outside every skill folder are not copied. */
function skillsOf(
  root: string,
  listing: TreeListing,
  idOf: (rel: string) => string,
  origin: string,
): FoundSkill[] {
  const byDir = new Map<string, FoundSkill>();
  for (const rel of listing.skillDirs) {
    const id = idOf(rel);
    const names = new Set([id, basename(id)]);
    if (id.startsWith("ext/")) names.add(id.slice(4));
    byDir.set(rel, { id, names: [...names], dir: join(root, rel), files: [], origin });
  }
  for (const rel of listing.files) {
    for (
      let dir = dirname(rel) === "." ? "" : dirname(rel);
      ;
      dir = dirname(dir) === "." ? "" : dirname(dir)
    ) {
      const skill = byDir.get(dir);
      if (skill) {
        const inside = dir ? rel.slice(dir.length + 1) : rel;
        skill.files.push({ rel: `${skill.id}/${inside}`, source: join(root, rel) });
        break;
      }
      if (dir === "") break;
    }
  }
  return [...byDir.values()];
}

function matchesAny(skill: FoundSkill, list: string[]): boolean {
  return list.some((name) => skill.names.includes(name.replace(/^\.\/+|\/+$/g, "")));
}

/** Folder name of the stage guides, beside the pack and inside the workspace. */
export const GUIDE_DIR_NAME = "guide_doc";

/** The pack's stage guides: `<pack>/guide_doc`, else `<pack>/../guide_doc` (the repo layout); null when neither is a folder. */
export async function findGuideDir(packRoot: string): Promise<string | null> {
  for (const candidate of [join(packRoot, GUIDE_DIR_NAME), join(dirname(packRoot), GUIDE_DIR_NAME)]) {
    const info = await lstat(candidate).catch(() => null);
    if (info?.isDirectory()) return candidate;
  }
  return null;
}

/** Every file of the guide folder, destined for `<ws>/guide_doc/<path>` (rel is workspace-relative), sorted. */
export async function planGuides(guideDir: string, warnings: string[]): Promise<PlannedFile[]> {
  const listing = await listTree(guideDir, warnings);
  return listing.files
    .map((rel) => ({ rel: `${GUIDE_DIR_NAME}/${rel}`, source: join(guideDir, rel) }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

export async function planCopy(input: PlanInput): Promise<CopyPlan> {
  const warnings: string[] = [];
  const found: FoundSkill[] = [];
  const packListing = await listTree(input.packRoot, warnings);
  found.push(
    ...skillsOf(input.packRoot, packListing, (rel) => rel || basename(input.packRoot), input.packRoot),
  );
  for (const extra of input.extraPaths) {
    const isSkill = existsSync(join(extra, "SKILL.md"));
    const listing = await listTree(extra, warnings);
    const idOf = (rel: string) =>
      isSkill
        ? rel
          ? `ext/${basename(extra)}/${rel}`
          : `ext/${basename(extra)}`
        : `ext/${rel || basename(extra)}`;
    found.push(...skillsOf(extra, listing, idOf, extra));
  }

  const seen = new Map<string, FoundSkill>();
  for (const skill of found) {
    const other = seen.get(skill.id);
    if (other) {
      throw new SkillgateError(
        "CONFIG_INVALID",
        `two skills would be copied to the same id ${skill.id}: ${other.dir} and ${skill.dir}; rename one folder or drop one path from skill.extra_skill_path`,
        { id: skill.id },
      );
    }
    seen.set(skill.id, skill);
  }

  // As UCAgent: a non-empty enable list is the whole selection and the disable list is then ignored.
  const useEnable = input.enable.length > 0;
  const selected = found.filter((skill) =>
    useEnable ? matchesAny(skill, input.enable) : !matchesAny(skill, input.disable),
  );
  for (const [listName, list] of [
    ["enable_skill_list", input.enable],
    ["disable_skill_list", input.disable],
  ] as const) {
    for (const name of list) {
      if (!found.some((skill) => matchesAny(skill, [name]))) {
        warnings.push(`skill.${listName} entry ${JSON.stringify(name)} matches no skill id or folder name`);
      }
    }
  }

  const files: PlannedFile[] = selected.flatMap((skill) => skill.files);
  const runnerMap = [
    join(input.packRoot, "script_runner.json"),
    join(dirname(input.packRoot), "script_runner.json"),
  ].find((candidate) => existsSync(candidate));
  if (runnerMap && (await lstat(runnerMap)).isFile())
    files.push({ rel: "script_runner.json", source: runnerMap });
  files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));

  const selectedIds = new Set(selected.map((skill) => skill.id));
  return {
    files,
    skills: [...selectedIds].sort(),
    excluded: found
      .map((skill) => skill.id)
      .filter((id) => !selectedIds.has(id))
      .sort(),
    warnings,
  };
}
