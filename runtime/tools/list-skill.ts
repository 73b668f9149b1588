// ListSkill: the current stage's skills, then general skills up to the cap, in UCAgent's text format; records list evidence.
import { z } from "zod";
import type { ToolResult } from "../contracts/index.js";
import { RESTORE_SKILLS_HINT } from "../evidence/index.js";
import type { SkillRecord } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import {
  errorResult,
  okResult,
  resultFromError,
  skillRootMissingResult,
  skillsDisabledResult,
  workspaceRelative,
} from "./results.js";
import type { Session, ToolDefinition } from "./types.js";

export const listSkillInput = z.object({}).strict().describe("ListSkill takes no arguments.");

export const LIST_SKILL_TIP =
  "Tip: When the task description matches a skill description, use the `ReadTextFile` tool to read the corresponding " +
  "skill's SKILL.md file, learn the skill, and apply it.";
export const RUN_SCRIPT_TIP =
  'Run a listed script with `RunSkillScript`: {"commands": [["<Skill ID>", "<script file>", "<args>"]]}.';

export interface ListedSkill {
  id: string;
  name: string;
  description: string;
  /** Workspace-relative SKILL.md. */
  path: string;
  scripts: { file: string; path: string }[];
  /** "stage": in the current stage's skill_list; "general": from skill.general_skill_list. */
  source: "stage" | "general";
}

/** Picks what ListSkill shows: stage skills (never capped), then general skills until `max` in total (0 = no cap). */
export function selectSkills(
  catalogSkills: SkillRecord[],
  stageSkillIds: string[],
  generalSkillIds: string[],
  max: number,
): { stage: SkillRecord[]; general: SkillRecord[] } {
  const stageSet = new Set(stageSkillIds);
  const stage = catalogSkills.filter((skill) => stageSet.has(skill.id));
  const generalSet = new Set(generalSkillIds.map((id) => normaliseSkillId(id) ?? id));
  const room = max === 0 ? Number.POSITIVE_INFINITY : Math.max(0, max - stage.length);
  const general = catalogSkills
    .filter((skill) => generalSet.has(skill.id) && !stageSet.has(skill.id))
    .slice(0, room);
  return { stage, general };
}

export function formatSkillList(skills: ListedSkill[]): string {
  const lines = [`Found ${skills.length} available skills:`];
  skills.forEach((skill, index) => {
    lines.push(`${index + 1}. Skill Name: ${skill.name}`);
    lines.push(`   Skill Description: ${skill.description}`);
    lines.push(`   Skill Path: ${skill.path}`);
    lines.push(`   Skill ID: ${skill.id}`);
    if (skill.scripts.length > 0) {
      lines.push("   Script Path:");
      for (const script of skill.scripts) lines.push(`     - ${script.file}: ${script.path}`);
    }
  });
  lines.push(LIST_SKILL_TIP);
  if (skills.some((skill) => skill.scripts.length > 0)) lines.push(RUN_SCRIPT_TIP);
  return lines.join("\n");
}

export async function listSkill(session: Session): Promise<ToolResult> {
  if (!session.skillsEnabled) return skillsDisabledResult("ListSkill");
  const snapshot = session.catalog();
  if (!snapshot) return skillRootMissingResult(session);
  const root = workspaceRelative(session, snapshot.root);
  if (snapshot.skills.length === 0) {
    return errorResult(
      "SKILL_NOT_FOUND",
      `No available skills found in skill directory ${root}. Skills should be subdirectories containing a SKILL.md ` +
        `file with name and description in its frontmatter; run \`skillgate init .\` in the workspace folder to copy ` +
        "the pack, or run `skillgate validate` on your skill folder to see why a skill was skipped.",
      { skill_root: snapshot.root, skipped: snapshot.skipped },
    );
  }
  try {
    const stage = await session.engine.current();
    const stageIds = stage?.skillList ?? [];
    const { stage: stageSkills, general } = selectSkills(
      snapshot.skills,
      stageIds,
      session.config.skill.general_skill_list,
      session.config.skill.max_skill_list_count,
    );
    const listed: ListedSkill[] = [
      ...stageSkills.map((skill) => describe(session, skill, "stage" as const)),
      ...general.map((skill) => describe(session, skill, "general" as const)),
    ];
    const found = new Set(stageSkills.map((skill) => skill.id));
    const missing = stageIds.filter((id) => !found.has(id));
    if (stageSkills.length > 0) await session.engine.recordList(stageSkills.map((skill) => skill.id));
    let text = formatSkillList(listed);
    if (missing.length > 0) {
      text +=
        `\nWarning: stage skill(s) ${missing.join(", ")} of stage '${stage?.config.name}' failed to load from ${root}; ` +
        "run `skillgate validate .ucagent/skills` to see why. " +
        RESTORE_SKILLS_HINT.replace("restore it", "restore the copy");
    }
    return okResult(text, {
      stage: stage?.config.name ?? null,
      count: listed.length,
      skills: listed,
      missing_stage_skills: missing,
      max_skill_list_count: session.config.skill.max_skill_list_count,
    });
  } catch (error) {
    return resultFromError(error);
  }
}

function describe(session: Session, skill: SkillRecord, source: ListedSkill["source"]): ListedSkill {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    path: workspaceRelative(session, skill.skillFile),
    scripts: skill.scripts.map((file) => ({
      file,
      path: workspaceRelative(session, `${skill.dir}/scripts/${file}`),
    })),
    source,
  };
}

export const listSkillTool: ToolDefinition<typeof listSkillInput> = {
  name: "ListSkill",
  description:
    "List the specified skills you can use. Returns the name, description, and path for each skill: the current " +
    "stage's skills first, then general skills. Read a skill's SKILL.md with ReadTextFile before applying it.",
  inputSchema: listSkillInput,
  skillTool: true,
  handler: (_input, session) => listSkill(session),
};
