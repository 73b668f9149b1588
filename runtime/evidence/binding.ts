// The workflow and the init manifest as the ledger binds them: canonical forms, digests and what changed between two.
import type { SkillgateConfig } from "../config/index.js";
import { canonicalJson, sha256Hex } from "./canonical.js";

/** The gate-relevant part of one stage (task and description texts are guidance, not the gate). */
export interface BoundStage {
  name: string;
  skill_list: string[];
  force_use_skill: boolean;
  checker: unknown[];
  output_files: string[];
}

export interface BoundWorkflow {
  stages: BoundStage[];
}

/** What one bind record fixes: the workflow, the manifest (skill-relative path → sha256) and skill support. */
export interface Binding {
  seq: number;
  workflowDigest: string;
  manifestDigest: string;
  workflow: BoundWorkflow;
  manifest: Record<string, string>;
  useSkill: boolean;
  reason: string;
}

export function boundWorkflow(
  config: Pick<SkillgateConfig, "stage">,
  normaliseId: (raw: string) => string | null,
): BoundWorkflow {
  return {
    stages: config.stage.map((stage) => ({
      name: stage.name,
      skill_list: [
        ...new Set(stage.skill_list.map((raw) => normaliseId(raw)).filter((id): id is string => id !== null)),
      ],
      force_use_skill: stage.force_use_skill,
      checker: stage.checker.map((c) => ({ kind: c.kind, args: c.args ?? {} })),
      output_files: [...stage.output_files],
    })),
  };
}

export function workflowDigest(workflow: BoundWorkflow): string {
  return sha256Hex(canonicalJson(workflow));
}

/** skill-relative path → sha256 of every file init copied. */
export function manifestMap(
  manifest: { files?: Record<string, { sha256: string }> } | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rel, entry] of Object.entries(manifest?.files ?? {})) {
    if (entry && typeof entry.sha256 === "string") out[rel] = entry.sha256;
  }
  return out;
}

export function manifestDigest(map: Record<string, string>): string {
  return sha256Hex(canonicalJson(map));
}

/** Human lines naming each gate-relevant difference between two workflows. */
export function workflowChanges(before: BoundWorkflow, after: BoundWorkflow): string[] {
  const lines: string[] = [];
  const count = Math.max(before.stages.length, after.stages.length);
  for (let i = 0; i < count; i += 1) {
    const a = before.stages[i];
    const b = after.stages[i];
    if (!a) {
      lines.push(`stage ${i} '${b!.name}' was added`);
      continue;
    }
    if (!b) {
      lines.push(`stage ${i} '${a.name}' was removed`);
      continue;
    }
    const label = `stage ${i} '${b.name}'`;
    if (a.name !== b.name) lines.push(`stage ${i} was renamed from '${a.name}' to '${b.name}'`);
    if (a.force_use_skill !== b.force_use_skill)
      lines.push(`${label}: force_use_skill ${a.force_use_skill} -> ${b.force_use_skill}`);
    if (canonicalJson(a.skill_list) !== canonicalJson(b.skill_list))
      lines.push(`${label}: skill_list ${JSON.stringify(a.skill_list)} -> ${JSON.stringify(b.skill_list)}`);
    if (canonicalJson(a.checker) !== canonicalJson(b.checker)) lines.push(`${label}: its checkers changed`);
    if (canonicalJson(a.output_files) !== canonicalJson(b.output_files))
      lines.push(
        `${label}: output_files ${JSON.stringify(a.output_files)} -> ${JSON.stringify(b.output_files)}`,
      );
  }
  return lines;
}

export interface ManifestDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

export function manifestChanges(before: Record<string, string>, after: Record<string, string>): ManifestDiff {
  const diff: ManifestDiff = { added: [], removed: [], changed: [] };
  for (const rel of Object.keys(after).sort()) {
    if (!(rel in before)) diff.added.push(rel);
    else if (before[rel] !== after[rel]) diff.changed.push(rel);
  }
  for (const rel of Object.keys(before).sort()) if (!(rel in after)) diff.removed.push(rel);
  return diff;
}

export function describeManifestDiff(diff: ManifestDiff, limit = 8): string[] {
  const part = (label: string, items: string[]) =>
    items.length === 0
      ? []
      : [
          `${label}: ${items.slice(0, limit).join(", ")}${items.length > limit ? ` and ${items.length - limit} more` : ""}`,
        ];
  return [...part("changed", diff.changed), ...part("added", diff.added), ...part("removed", diff.removed)];
}

/** Stages of `after` whose own config changed, or one of whose skills has a changed, added or removed file. */
export function affectedStages(before: BoundWorkflow, after: BoundWorkflow, diff: ManifestDiff): number[] {
  const touched = [...diff.added, ...diff.removed, ...diff.changed];
  return after.stages
    .map((stage, i) => {
      const old = before.stages[i];
      if (!old || canonicalJson(old) !== canonicalJson(stage)) return i;
      const hit = stage.skill_list.some((id) => touched.some((rel) => rel.startsWith(`${id}/`)));
      return hit ? i : -1;
    })
    .filter((i) => i >= 0);
}
