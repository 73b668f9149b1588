// Compares the workflow and manifest a process runs with against the binding in the ledger, and drafts bind records.
import type { ErrorCode } from "../errors.js";
import {
  affectedStages,
  type Binding,
  type BoundWorkflow,
  describeManifestDiff,
  manifestChanges,
  manifestDigest,
  workflowChanges,
  workflowDigest,
} from "./binding.js";
import type { UnsignedRecord } from "./record.js";
import type { EvidenceState } from "./state.js";

export interface CurrentBinding {
  workflow: BoundWorkflow;
  manifest: Record<string, string>;
  useSkill: boolean;
}

export interface BindingRefusal {
  code: Extract<ErrorCode, "WORKFLOW_CHANGED" | "PACK_CHANGED">;
  message: string;
  changes: string[];
}

export function digestsOf(current: CurrentBinding): { workflowDigest: string; manifestDigest: string } {
  return {
    workflowDigest: workflowDigest(current.workflow),
    manifestDigest: manifestDigest(current.manifest),
  };
}

/** What differs between the binding and what runs now (empty when nothing gate-relevant changed). */
export function bindingChanges(
  bound: Binding,
  current: CurrentBinding,
): { workflow: string[]; pack: string[]; useSkill: boolean } {
  const digests = digestsOf(current);
  return {
    workflow:
      digests.workflowDigest === bound.workflowDigest
        ? []
        : workflowChanges(bound.workflow, current.workflow),
    pack:
      digests.manifestDigest === bound.manifestDigest
        ? []
        : describeManifestDiff(manifestChanges(bound.manifest, current.manifest)),
    useSkill: bound.useSkill !== current.useSkill,
  };
}

/** A bind record for `current`, resetting the stages the change touches (relative to the previous binding). */
export function bindRecord(
  state: EvidenceState,
  current: CurrentBinding,
  reason: string,
): { record: UnsignedRecord; affected: number[]; changes: string[] } {
  const bound = state.binding;
  const diff = bound
    ? manifestChanges(bound.manifest, current.manifest)
    : { added: [], removed: [], changed: [] };
  const affected = bound ? affectedStages(bound.workflow, current.workflow, diff) : [];
  const changes = bound
    ? [
        ...workflowChanges(bound.workflow, current.workflow),
        ...describeManifestDiff(diff).map((line) => `skill pack ${line}`),
        ...(bound.useSkill !== current.useSkill
          ? [`skill support ${bound.useSkill ? "on -> off" : "off -> on"}`]
          : []),
      ]
    : [];
  return {
    record: {
      stage: state.stageIndex,
      kind: "bind",
      data: {
        ...digestsOf(current),
        workflow: current.workflow,
        manifest: current.manifest,
        useSkill: current.useSkill,
        reason,
        changes,
        affectedStages: affected,
      },
    },
    affected,
    changes,
  };
}

/** The refusal for Check/SetSkillUsage/Complete when the running workflow or manifest is not the bound one. */
export function bindingRefusal(
  bound: Binding | null,
  current: CurrentBinding,
  workspace: string,
): BindingRefusal | null {
  if (!bound) return null;
  const changes = bindingChanges(bound, current);
  const fix = `run \`skillgate init ${workspace}\`: it records the change in the ledger and resets the evidence of the affected stages (or undo the change)`;
  if (changes.workflow.length > 0 || changes.useSkill) {
    const lines = [
      ...changes.workflow,
      ...(changes.useSkill
        ? [`skill.use_skill ${bound.useSkill} -> ${current.useSkill} (set in a config file)`]
        : []),
    ];
    return {
      code: "WORKFLOW_CHANGED",
      changes: lines,
      message: `The workflow changed since init bound it to the evidence ledger: ${lines.join("; ")}. Check, SetSkillUsage and Complete are refused until the change is recorded: ${fix}. An MCP server started before another process re-ran init must be restarted.`,
    };
  }
  if (changes.pack.length > 0) {
    return {
      code: "PACK_CHANGED",
      changes: changes.pack,
      message: `The init manifest (.ucagent/skillgate/manifest.json) differs from the one bound in the evidence ledger (${changes.pack.join("; ")}). Check, SetSkillUsage and Complete are refused until the change is recorded: ${fix}; init copies the pack again and records its hashes.`,
    };
  }
  return null;
}
