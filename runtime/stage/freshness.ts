// Whether the last passing Check and the last accepted SetSkillUsage still cover the current evidence and outputs.
import type { EvidenceState, Freshness } from "../evidence/index.js";
import { changedOutputs, type OutputFingerprint } from "./fingerprint.js";

const NEW_EVIDENCE = "new ListSkill/ReadTextFile/RunSkillScript evidence was recorded after";

export function checkFreshness(state: EvidenceState, outputs: OutputFingerprint): Freshness {
  const check = state.check;
  if (!check) return { ok: false, reason: "`Check` has not run on the current evidence of this stage" };
  if (!check.passed) return { ok: false, reason: "the last `Check` failed" };
  if (check.evidenceVersion !== state.evidenceVersion)
    return { ok: false, reason: `${NEW_EVIDENCE} the last \`Check\`` };
  if (check.fingerprint !== outputs.hash) {
    return {
      ok: false,
      reason: `output files changed after the last \`Check\`: ${changedList(check.files, outputs)}`,
    };
  }
  return { ok: true, reason: "" };
}

export function usageFreshness(state: EvidenceState, outputs: OutputFingerprint): Freshness {
  const usage = state.usage;
  if (!usage) return { ok: false, reason: "SetSkillUsage has not accepted a usage report in this stage" };
  if (usage.evidenceVersion !== state.evidenceVersion) {
    return { ok: false, reason: `${NEW_EVIDENCE} SetSkillUsage accepted the usage` };
  }
  if (usage.fingerprint !== outputs.hash) {
    return {
      ok: false,
      reason: `output files changed after the \`Check\` that SetSkillUsage relied on: ${changedList(usage.files, outputs)}`,
    };
  }
  return { ok: true, reason: "" };
}

function changedList(before: Record<string, string>, outputs: OutputFingerprint): string {
  const changed = changedOutputs(before, outputs.files);
  return changed.length > 0 ? changed.join(", ") : "(contents differ)";
}
