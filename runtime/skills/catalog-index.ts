// The on-disk catalog index of a skill root: one scan's snapshot plus the stat stamps it rests on, all re-checked before use.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type IndexBody, type IndexedSkill, isJsonSafe, readIndexBody } from "./catalog-index-format.js";
import { SkillTree } from "./tree.js";
import {
  childPath,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_SKILLS,
  type ScanOptions,
  SKILL_FILE,
} from "./tree-files.js";
import { KeyRecorder, STAMP_FIELDS, stampInto } from "./tree-record.js";
import type { CatalogSnapshot, SkillRecord } from "./types.js";

export interface CatalogIndexStore {
  /** This root's index file, in a cache folder of the caller's (outside any workspace). */
  file: string;
  /** Writes the file atomically. A failed write only means the next scan is not served from the index. */
  write(file: string, text: string): void;
  /** The clock the settle rule reads (Date.now by default). */
  now?: () => number;
}

export interface IndexedScan {
  snapshot: CatalogSnapshot;
  /** "index" when every key still matched; "scan" when the tree was walked (and the index rewritten if it could be). */
  source: "index" | "scan";
}

const MAGIC = "skillgate-catalog-index 1";

/**
 * scanSkillRoot's result for `root`, served from the index when the index is intact (checksum, shape, same
 * root and options) and every folder and file it rests on has the same stat key as when it was scanned; else
 * a fresh scan, whose index is written when the tree had settled (see SETTLE_MS) and holds no symlink.
 */
export function scanSkillRootIndexed(
  root: string,
  store: CatalogIndexStore,
  options: ScanOptions = {},
): IndexedScan {
  const settings = {
    root: path.resolve(root),
    mode: options.mode ?? "ucagent",
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    maxSkills: options.maxSkills ?? DEFAULT_MAX_SKILLS,
  };
  const kept = loadIndex(store.file, settings);
  if (kept) return { snapshot: kept, source: "index" };
  const recorder = new KeyRecorder((store.now ?? Date.now)());
  const tree = new SkillTree(root, options, recorder);
  tree.scanAll();
  const snapshot = tree.snapshot(1);
  if (recorder.indexable() && snapshot.skills.every((skill) => isJsonSafe(skill.frontmatter))) {
    const body: IndexBody = {
      ...settings,
      realRoot: recorder.realRoot,
      paths: recorder.paths.map((file) => relative(settings.root, file)),
      digest: sha256(recorder.stamps()),
      skills: snapshot.skills.map(toIndexed),
      skipped: snapshot.skipped,
    };
    const text = JSON.stringify(body);
    store.write(store.file, `${MAGIC} ${sha256(text)}\n${text}`);
  }
  return { snapshot, source: "scan" };
}

type Settings = Pick<IndexBody, "root" | "mode" | "maxDepth" | "maxSkills">;

/** The snapshot the index holds, or null when anything about it or the tree it describes is off. */
function loadIndex(file: string, settings: Settings): CatalogSnapshot | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const newline = text.indexOf("\n");
  const header = newline === -1 ? "" : text.slice(0, newline);
  const json = text.slice(newline + 1);
  if (header !== `${MAGIC} ${sha256(json)}`) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  const body = readIndexBody(parsed);
  if (!body) return null;
  if (
    body.root !== settings.root ||
    body.mode !== settings.mode ||
    body.maxDepth !== settings.maxDepth ||
    body.maxSkills !== settings.maxSkills
  )
    return null;
  try {
    if (fs.realpathSync(settings.root) !== body.realRoot) return null;
    const stamps = new Float64Array(body.paths.length * STAMP_FIELDS);
    for (let at = 0; at < body.paths.length; at++) {
      if (stampInto(stamps, at, absolute(settings.root, body.paths[at] as string)) === null) return null;
    }
    if (sha256(stamps) !== body.digest) return null;
  } catch {
    return null;
  }
  return {
    root: settings.root,
    skills: body.skills.map((skill) => fromIndexed(settings.root, skill)),
    skipped: body.skipped,
    generation: 1,
  };
}

function toIndexed(skill: SkillRecord): IndexedSkill {
  const { id, name, description, metadata, frontmatter, body, scripts, hasHooks, diagnostics } = skill;
  return { id, name, description, metadata, frontmatter, body, scripts, hasHooks, diagnostics };
}

/** The record as the walker builds it (same fields, same order, same paths). */
function fromIndexed(root: string, skill: IndexedSkill): SkillRecord {
  const dir = skill.id.split("/").reduce(childPath, root);
  return {
    id: skill.id,
    root,
    dir,
    skillFile: childPath(dir, SKILL_FILE),
    name: skill.name,
    description: skill.description,
    metadata: skill.metadata,
    frontmatter: skill.frontmatter,
    body: skill.body,
    scripts: skill.scripts,
    hasHooks: skill.hasHooks,
    diagnostics: skill.diagnostics,
  };
}

function relative(root: string, file: string): string {
  if (file === root) return "";
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

function absolute(root: string, rel: string): string {
  if (rel === "") return root;
  if (rel.startsWith("/")) return rel;
  return root.endsWith("/") ? root + rel : `${root}/${rel}`;
}

function sha256(data: string | Float64Array): string {
  return createHash("sha256").update(data).digest("hex");
}
