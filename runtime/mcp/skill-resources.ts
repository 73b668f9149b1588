// What the Skills Extension serves: the skills ListSkill shows in the current stage, their files, digests and bytes.
import { extname } from "node:path";
import type { SkillRecord } from "../skills/index.js";
import type { Session } from "../tools/index.js";
import { selectSkills, workspaceRelative } from "../tools/index.js";
import { listWorkspaceDir, readWorkspaceFile, sha256Bytes } from "../workspace/index.js";
import { skillUri } from "./skill-uri.js";

/** Largest skill file served (same cap as ReadTextFile). */
export const MAX_SKILL_FILE_BYTES = 10 * 1024 * 1024;
/** Bounds of the walk of one skill folder. */
export const MAX_SKILL_FILES = 1000;
const MAX_DEPTH = 16;

export interface ServedSkill {
  skill: SkillRecord;
  /** True when the skill is in the current stage's skill_list (a whole SKILL.md read is read evidence). */
  stageSkill: boolean;
}

export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string }[];
}

/** The last segment of a skill's id must equal its frontmatter name (SEP-2640); others are not served. */
export function servable(skill: SkillRecord): boolean {
  return skill.id.split("/").at(-1) === skill.name;
}

/** Skills ListSkill could show now (stage skills, then general skills up to the cap), minus unservable names. */
export async function servedSkills(session: Session): Promise<ServedSkill[]> {
  if (!session.skillsEnabled) return [];
  const snapshot = session.catalog();
  if (!snapshot) return [];
  const stage = await session.engine.current();
  const stageIds = stage?.skillList ?? [];
  const { stage: stageSkills, general } = selectSkills(
    snapshot.skills,
    stageIds,
    session.config.skill.general_skill_list,
    session.config.skill.max_skill_list_count,
  );
  return [
    ...stageSkills.map((skill) => ({ skill, stageSkill: true })),
    ...general.map((skill) => ({ skill, stageSkill: false })),
  ].filter((served) => servable(served.skill));
}

/** Regular files of a skill folder, "/"-separated and sorted; listed through the safe file layer (no symlink followed). */
export async function skillFiles(session: Session, skill: SkillRecord): Promise<string[]> {
  const listed = await listWorkspaceDir(session.paths.root, workspaceRelative(session, skill.dir), {
    recursive: true,
    maxDepth: MAX_DEPTH,
    maxEntries: MAX_SKILL_FILES * 4,
  });
  return listed.entries
    .filter((entry) => entry.kind === "file")
    .map((entry) => entry.path)
    .slice(0, MAX_SKILL_FILES)
    .sort();
}

/** Bytes of one file inside a skill folder, read through the safe file layer (regular file, inside, size-capped). */
export async function readSkillFile(session: Session, skill: SkillRecord, file: string): Promise<Buffer> {
  const rel = `${workspaceRelative(session, skill.dir)}/${file}`;
  return (await readWorkspaceFile(session.paths.root, rel, { maxBytes: MAX_SKILL_FILE_BYTES })).bytes;
}

/** The skills/list (and skills/get) entry of a skill: verbatim frontmatter and every file with its digest. */
export async function skillEntry(session: Session, skill: SkillRecord): Promise<SkillEntry> {
  const resources: SkillEntry["resources"] = [];
  for (const file of await skillFiles(session, skill)) {
    const bytes = await readSkillFile(session, skill, file).catch(() => null);
    if (bytes) resources.push({ uri: skillUri(skill.id, file), digest: `sha256:${sha256Bytes(bytes)}` });
  }
  return { uri: skillUri(skill.id, "SKILL.md"), frontmatter: skill.frontmatter, resources };
}

const MIME_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
  ".bash": "text/x-shellscript",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".csv": "text/csv",
  ".html": "text/html",
  ".toml": "application/toml",
};

/** UTF-8 text (no NUL) decoded exactly, byte for byte (a BOM is kept); null for binary content. */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function mimeTypeOf(file: string, text: boolean): string {
  return MIME_TYPES[extname(file).toLowerCase()] ?? (text ? "text/plain" : "application/octet-stream");
}
