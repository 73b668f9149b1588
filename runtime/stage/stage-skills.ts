// Pure rules about a stage's skills: its normalised skill_list, where each skill is, whether the gate applies, its evidence.
import { join, relative, sep } from "node:path";
import type { StageConfig } from "../config/index.js";
import type { WorkspacePaths } from "../contracts/index.js";
import {
  type CompletionGate,
  countsAsUsed,
  type EvidenceState,
  flagsOf,
  isTextMethod,
  type StageSkillInfo,
  type UsageClaim,
} from "../evidence/index.js";
import type { CatalogSnapshot } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import type { SkillEvidence } from "./types.js";

/** Normalised, de-duplicated skill ids of a stage; empty when skills are disabled. */
export function stageSkillList(stage: StageConfig | undefined, skillsEnabled: boolean): string[] {
  if (!skillsEnabled) return [];
  const raw = stage?.skill_list ?? [];
  return [...new Set(raw.map((r) => normaliseSkillId(r)).filter((id): id is string => id !== null))];
}

/** Where each skill's SKILL.md is (workspace-relative), its scripts, and whether the workspace copy has it. */
export function stageSkillInfo(
  paths: Pick<WorkspacePaths, "root" | "skillsDir">,
  ids: string[],
  catalog: CatalogSnapshot | null,
): Record<string, StageSkillInfo> {
  const out: Record<string, StageSkillInfo> = {};
  for (const id of ids) {
    const skill = catalog?.skills.find((s) => s.id === id);
    const file = skill?.skillFile ?? join(paths.skillsDir, ...id.split("/"), "SKILL.md");
    out[id] = {
      skillFile: relative(paths.root, file).split(sep).join("/"),
      scripts: skill?.scripts ?? [],
      present: skill !== undefined,
    };
  }
  return out;
}

/** How Complete treats a stage's skills, as recorded with each completion. */
export function gateMode(stage: StageConfig | undefined, skillsEnabled: boolean): CompletionGate {
  if ((stage?.skill_list ?? []).length === 0) return "no_skill_list";
  if (!skillsEnabled) return "skills_disabled";
  if (!stage?.force_use_skill) return "gate_off";
  return "enforced";
}

/** Complete checks skill evidence first: forced stage, skills on, and a non-empty skill_list. */
export function gateApplies(stage: StageConfig | undefined, skillsEnabled: boolean): boolean {
  return Boolean(stage && skillsEnabled && stage.force_use_skill && stageSkillList(stage, true).length > 0);
}

/** The evidence of one stage skill as the agent sees it (a text method's use by the rule in evidence/text-method). */
export function skillEvidence(
  state: EvidenceState,
  id: string,
  info: StageSkillInfo | undefined,
  claim: UsageClaim | undefined,
): SkillEvidence {
  const flags = flagsOf(state, id);
  return {
    list: flags.list,
    read: flags.read,
    use: countsAsUsed(flags.use, isTextMethod(info), claim),
    ...(claim?.use === false && claim.reason ? { notApplicableReason: claim.reason } : {}),
  };
}
