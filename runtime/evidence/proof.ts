// The offline verifier: a proof bundle (ledger lines + public key) checked with no secret, with a verdict per stage.

import { foldLines } from "./fold.js";
import { GENESIS_HASH, type LedgerRecord } from "./record.js";
import { fingerprintOf } from "./signer.js";
import { type EvidenceState, emptyState, flagsOf } from "./state.js";
import { countsAsUsed } from "./text-method.js";

export const PROOF_FORMAT = "skillgate-proof/1";

export interface ProofBundle {
  format: typeof PROOF_FORMAT;
  workspace: string;
  exported_at: string;
  /** Raw 32-byte Ed25519 public key (base64) that signs the ledger's last records. */
  public_key: string;
  fingerprint: string;
  /** Digests of the workflow and manifest in effect when exported (compared with the last binding). */
  workflow_digest: string | null;
  manifest_digest: string | null;
  /** The ledger lines, verbatim. */
  records: string[];
}

export interface StageVerdict {
  index: number;
  name: string;
  verdict:
    | "verified"
    | "completed with skills disabled"
    | "completed with the gate off"
    | "completed (no skill_list)"
    | "failed"
    | "current"
    | "pending";
  /** Seq of the completion record. */
  record?: number;
  problems: string[];
}

export interface ProofFailure {
  record: number | null;
  reason: string;
}

export interface VerifyReport {
  ok: boolean;
  records: number;
  fingerprint: string | null;
  workspace: string | null;
  failures: ProofFailure[];
  warnings: string[];
  stages: StageVerdict[];
}

const MODE_VERDICT = {
  skills_disabled: "completed with skills disabled",
  gate_off: "completed with the gate off",
  no_skill_list: "completed (no skill_list)",
} as const;

/** Verifies a bundle. `pubkey` pins the fingerprint; `current` adds the digests the workspace has now. */
export function verifyProof(
  bundle: ProofBundle,
  options: { pubkey?: string; current?: { workflowDigest: string; manifestDigest: string } } = {},
): VerifyReport {
  const failures: ProofFailure[] = [];
  const warnings: string[] = [];
  const completions = new Map<number, StageVerdict>();
  if (bundle.format !== PROOF_FORMAT)
    failures.push({
      record: null,
      reason: `not a ${PROOF_FORMAT} bundle (format ${JSON.stringify(bundle.format)})`,
    });
  const lines = (Array.isArray(bundle.records) ? bundle.records : []).map((text, i) => ({
    text: String(text),
    offset: i,
    end: i + 1,
    torn: false,
  }));
  const fold = foldLines(
    lines,
    { state: emptyState(), head: { offset: 0, seq: 0, hash: GENESIS_HASH } },
    {
      onRecord: (record, before) => {
        if (record.kind === "complete" && record.data.passed === true && !before.finished)
          completions.set(before.stageIndex, judgeCompletion(record, before));
      },
    },
  );
  const state = fold.state;
  const first = lines[0] ? safeKind(lines[0].text) : null;
  if (first !== "genesis")
    failures.push({ record: 1, reason: "the first record is not a valid genesis record" });
  for (const bad of fold.unaccounted.bad) failures.push({ record: bad.seq, reason: bad.reason });
  for (const [a, b] of fold.unaccounted.gaps)
    failures.push({
      record: a,
      reason: a === b ? `record ${a} is missing` : `records ${a}-${b} are missing`,
    });
  const accounted = fold.bad.length - fold.unaccounted.bad.length;
  if (accounted > 0)
    warnings.push(`${accounted} line(s) were quarantined by the workspace itself (kept, not applied)`);
  const identity = state.identity;
  const fingerprint = identity ? fingerprintOf(identity.publicKey) : null;
  if (identity && bundle.public_key !== identity.publicKey)
    failures.push({
      record: null,
      reason: `the bundle's public key (${fingerprintOf(String(bundle.public_key))}) is not the key the ledger names (${fingerprint})`,
    });
  if (options.pubkey && fingerprint !== options.pubkey)
    failures.push({
      record: null,
      reason: `the ledger is signed by ${fingerprint}, not by the pinned key ${options.pubkey}`,
    });
  const binding = state.binding;
  if (!binding) failures.push({ record: null, reason: "the ledger binds no workflow (no bind record)" });
  const digests =
    options.current ??
    (bundle.workflow_digest && bundle.manifest_digest
      ? { workflowDigest: bundle.workflow_digest, manifestDigest: bundle.manifest_digest }
      : null);
  if (binding && digests) {
    if (digests.workflowDigest !== binding.workflowDigest)
      failures.push({
        record: binding.seq,
        reason: `WORKFLOW_CHANGED: the workflow in effect (${digests.workflowDigest.slice(0, 12)}) is not the one bound at record ${binding.seq} (${binding.workflowDigest.slice(0, 12)}); run skillgate init to record the change`,
      });
    if (digests.manifestDigest !== binding.manifestDigest)
      failures.push({
        record: binding.seq,
        reason: `PACK_CHANGED: the init manifest (${digests.manifestDigest.slice(0, 12)}) is not the one bound at record ${binding.seq} (${binding.manifestDigest.slice(0, 12)}); run skillgate init to record the change`,
      });
  }
  const stages = (binding?.workflow.stages ?? []).map((stage, index): StageVerdict => {
    const done = completions.get(index);
    if (done) return { ...done, name: stage.name };
    const isCurrent = !state.finished && state.stageIndex === index;
    return { index, name: stage.name, verdict: isCurrent ? "current" : "pending", problems: [] };
  });
  for (const stage of stages)
    for (const problem of stage.problems)
      failures.push({
        record: stage.record ?? null,
        reason: `stage ${stage.index} '${stage.name}': ${problem}`,
      });
  return {
    ok: failures.length === 0,
    records: fold.head.seq,
    fingerprint,
    workspace: identity?.workspace ?? null,
    failures,
    warnings,
    stages,
  };
}

/** Did this completion have real list/read/use (or an accepted reason) for every skill its bound workflow forced? */
function judgeCompletion(record: LedgerRecord, before: EvidenceState): StageVerdict {
  const index = before.stageIndex;
  const bound = before.binding;
  const stage = bound?.workflow.stages[index];
  const base = { index, name: stage?.name ?? String(record.data.name ?? ""), record: record.seq };
  if (!bound || !stage)
    return { ...base, verdict: "failed", problems: ["completed without a bound workflow"] };
  const mode = !bound.useSkill
    ? stage.skill_list.length === 0
      ? "no_skill_list"
      : "skills_disabled"
    : stage.skill_list.length === 0
      ? "no_skill_list"
      : stage.force_use_skill
        ? "enforced"
        : "gate_off";
  const recorded = typeof record.data.gate === "string" ? record.data.gate : mode;
  if (recorded !== mode)
    return {
      ...base,
      verdict: "failed",
      problems: [`the completion says the gate was '${recorded}' but the bound workflow makes it '${mode}'`],
    };
  if (mode !== "enforced") return { ...base, verdict: MODE_VERDICT[mode], problems: [] };
  const problems: string[] = [];
  const claims = before.usage?.claims ?? {};
  if (!before.usage || before.usage.evidenceVersion !== before.evidenceVersion)
    problems.push("SetSkillUsage had not accepted the evidence the stage completed with");
  for (const id of stage.skill_list) {
    const flags = flagsOf(before, id);
    const claim = claims[id];
    const hasScripts = Object.keys(bound.manifest).some((rel) => rel.startsWith(`${id}/scripts/`));
    const used =
      countsAsUsed(flags.use, !hasScripts, claim) || (claim?.use === false && Boolean(claim.reason));
    const missing = [
      !flags.list && "list",
      !flags.read && "read",
      !used && "use (or an accepted not-applicable reason)",
    ].filter(Boolean);
    if (missing.length > 0)
      problems.push(`skill ${id} has no ${missing.join(", ")} evidence before record ${record.seq}`);
  }
  return { ...base, verdict: problems.length === 0 ? "verified" : "failed", problems };
}

function safeKind(text: string): string | null {
  try {
    return String((JSON.parse(text) as { kind?: unknown }).kind ?? "");
  } catch {
    return null;
  }
}

/** Human report lines (the CLI prints them). */
export function verifyReportLines(report: VerifyReport, source: string): string[] {
  const lines = [
    `${report.ok ? "VERIFIED" : "FAILED"}: ${source} — ${report.records} records, key ${report.fingerprint ?? "?"}${report.workspace ? `, workspace ${report.workspace}` : ""}`,
  ];
  for (const stage of report.stages)
    lines.push(
      `  stage ${stage.index} '${stage.name}': ${stage.verdict}${stage.record ? ` (record ${stage.record})` : ""}`,
    );
  for (const failure of report.failures)
    lines.push(
      `  problem${failure.record !== null ? ` at record ${failure.record}` : ""}: ${failure.reason}`,
    );
  for (const warning of report.warnings) lines.push(`  note: ${warning}`);
  return lines;
}
