// The offline verifier (proof.ts): a bundle checked with only the public key, each stage re-judged from its bound workflow, every failure named.
import { describe, expect, it } from "vitest";
import {
  applyRecord,
  type BoundWorkflow,
  digestsOf,
  emptyState,
  GENESIS_HASH,
  type LedgerRecord,
  PROOF_FORMAT,
  type ProofBundle,
  sealRecord,
  signerFromSeed,
  type UnsignedRecord,
  verifyProof,
  verifyReportLines,
} from "../../runtime/evidence/index.js";

const signer = signerFromSeed(Buffer.alloc(32, 11));
const stranger = signerFromSeed(Buffer.alloc(32, 12));
const TIME = "2026-01-01T00:00:00.000Z";
const SKILL = "grp/a";
const WORKFLOW: BoundWorkflow = {
  stages: [
    { name: "review", skill_list: [SKILL], force_use_skill: true, checker: [], output_files: [] },
    { name: "ship", skill_list: [], force_use_skill: true, checker: [], output_files: [] },
  ],
};
const MANIFEST = { [`${SKILL}/SKILL.md`]: "11", [`${SKILL}/scripts/run.py`]: "22" };
const DIGESTS = digestsOf({ workflow: WORKFLOW, manifest: MANIFEST, useSkill: true });

/** Seals drafts in order; a draft given as a function gets the state before it (for evidence versions). */
function ledger(
  drafts: Array<UnsignedRecord | ((state: ReturnType<typeof emptyState>) => UnsignedRecord)>,
): LedgerRecord[] {
  const state = emptyState();
  const out: LedgerRecord[] = [];
  let head = { seq: 0, hash: GENESIS_HASH };
  for (const item of drafts) {
    const draft = typeof item === "function" ? item(state) : item;
    const record = sealRecord(draft, head, TIME, signer);
    applyRecord(state, record);
    out.push(record);
    head = record;
  }
  return out;
}

const d = (kind: UnsignedRecord["kind"], data: Record<string, unknown> = {}, stage = 0): UnsignedRecord => ({
  stage,
  kind,
  data,
});
const opening = (useSkill = true): UnsignedRecord[] => [
  d("genesis", {
    workspace: "/ws",
    initId: "i",
    publicKey: signer.publicKey,
    fingerprint: signer.fingerprint,
  }),
  d("bind", { ...DIGESTS, workflow: WORKFLOW, manifest: MANIFEST, useSkill, reason: "init" }),
  d("stage_enter", { name: "review" }),
];
const evidence = [
  d("list", { skills: [SKILL] }),
  d("read", { skill: SKILL, startLine: 1, endLine: 5, totalLines: 5 }),
  d("use", { skills: [SKILL] }),
];
const accepted = (state: ReturnType<typeof emptyState>) =>
  d("set_skill_usage", {
    accepted: true,
    evidenceVersion: state.evidenceVersion,
    fingerprint: "fp",
    files: {},
    claims: { [SKILL]: { list: true, read: true, use: true } },
  });
const complete = (gate = "enforced") => d("complete", { passed: true, gate, next: 1, nextName: "ship" });

function bundle(records: LedgerRecord[], over: Partial<ProofBundle> = {}): ProofBundle {
  return {
    format: PROOF_FORMAT,
    workspace: "/ws",
    exported_at: TIME,
    public_key: signer.publicKey,
    fingerprint: signer.fingerprint,
    workflow_digest: DIGESTS.workflowDigest,
    manifest_digest: DIGESTS.manifestDigest,
    records: records.map((r) => JSON.stringify(r)),
    ...over,
  };
}

const honest = ledger([...opening(), ...evidence, accepted, complete()]);

describe("verifyProof", () => {
  it("an honest ledger verifies: the forced stage verified at its completion record, the next one current", () => {
    const report = verifyProof(bundle(honest));
    expect(report).toEqual({
      ok: true,
      records: 8,
      fingerprint: signer.fingerprint,
      workspace: "/ws",
      failures: [],
      warnings: [],
      stages: [
        { index: 0, name: "review", verdict: "verified", record: 8, problems: [] },
        { index: 1, name: "ship", verdict: "current", problems: [] },
      ],
    });
    expect(verifyReportLines(report, "proof.json")).toEqual([
      `VERIFIED: proof.json — 8 records, key ${signer.fingerprint}, workspace /ws`,
      "  stage 0 'review': verified (record 8)",
      "  stage 1 'ship': current",
    ]);
    expect(verifyProof(bundle(honest), { pubkey: signer.fingerprint }).ok).toBe(true);
  });

  it("an edited record fails at that record, with the reason", () => {
    const lines = bundle(honest).records;
    lines[4] = lines[4]!.replace('"endLine":5', '"endLine":6');
    const report = verifyProof({ ...bundle(honest), records: lines });
    expect(report.ok).toBe(false);
    expect(report.failures).toContainEqual({
      record: 5,
      reason: "record 5 content does not match its hash (edited)",
    });
  });

  it("a stage completed without its evidence fails, naming each missing step (the key holder cannot vouch for it)", () => {
    const forged = ledger([...opening(), evidence[0]!, complete()]);
    const report = verifyProof(bundle(forged));
    const problems = [
      "SetSkillUsage had not accepted the evidence the stage completed with",
      "skill grp/a has no read, use (or an accepted not-applicable reason) evidence before record 5",
    ];
    expect(report.stages[0]).toEqual({ index: 0, name: "review", verdict: "failed", record: 5, problems });
    expect(report.failures).toEqual(problems.map((p) => ({ record: 5, reason: `stage 0 'review': ${p}` })));
    expect(verifyReportLines(report, "b.json")).toEqual([
      `FAILED: b.json — 5 records, key ${signer.fingerprint}, workspace /ws`,
      "  stage 0 'review': failed (record 5)",
      "  stage 1 'ship': current",
      `  problem at record 5: stage 0 'review': ${problems[0]}`,
      `  problem at record 5: stage 0 'review': ${problems[1]}`,
    ]);
  });

  it("a completion claiming another gate than its bound workflow gives is failed", () => {
    const report = verifyProof(bundle(ledger([...opening(), complete("skills_disabled")])));
    expect(report.stages[0]?.problems).toEqual([
      "the completion says the gate was 'skills_disabled' but the bound workflow makes it 'enforced'",
    ]);
    // Skill support is not part of either digest: the bundle's digests still match.
    const disabled = verifyProof(bundle(ledger([...opening(false), complete("skills_disabled")])));
    expect(disabled.stages[0]).toMatchObject({ verdict: "completed with skills disabled", problems: [] });
  });

  it.each<[string, () => ReturnType<typeof verifyProof>, { record: number | null; reason: string }]>([
    [
      "another format",
      () => verifyProof(bundle(honest, { format: "zip" as typeof PROOF_FORMAT })),
      { record: null, reason: 'not a skillgate-proof/1 bundle (format "zip")' },
    ],
    [
      "a bundle key that is not the ledger's",
      () => verifyProof(bundle(honest, { public_key: stranger.publicKey })),
      {
        record: null,
        reason: `the bundle's public key (${stranger.fingerprint}) is not the key the ledger names (${signer.fingerprint})`,
      },
    ],
    [
      "a pinned key that is not the ledger's",
      () => verifyProof(bundle(honest), { pubkey: stranger.fingerprint }),
      {
        record: null,
        reason: `the ledger is signed by ${signer.fingerprint}, not by the pinned key ${stranger.fingerprint}`,
      },
    ],
    [
      "a workflow changed since it was bound",
      () => verifyProof(bundle(honest), { current: { ...DIGESTS, workflowDigest: "a".repeat(64) } }),
      {
        record: 2,
        reason: `WORKFLOW_CHANGED: the workflow in effect (aaaaaaaaaaaa) is not the one bound at record 2 (${DIGESTS.workflowDigest.slice(0, 12)}); run skillgate init to record the change`,
      },
    ],
    [
      "a pack changed since it was bound",
      () => verifyProof(bundle(honest, { manifest_digest: "b".repeat(64) })),
      {
        record: 2,
        reason: `PACK_CHANGED: the init manifest (bbbbbbbbbbbb) is not the one bound at record 2 (${DIGESTS.manifestDigest.slice(0, 12)}); run skillgate init to record the change`,
      },
    ],
    [
      "no bind record",
      () => verifyProof(bundle(ledger([opening()[0]!]))),
      { record: null, reason: "the ledger binds no workflow (no bind record)" },
    ],
    [
      "no genesis first",
      () => verifyProof(bundle(honest, { records: bundle(honest).records.slice(1) })),
      { record: 1, reason: "the first record is not a valid genesis record" },
    ],
    [
      "a record removed from the middle",
      () => {
        const lines = bundle(honest).records;
        lines.splice(3, 1);
        return verifyProof({ ...bundle(honest), records: lines });
      },
      { record: 4, reason: "record 4 is missing" },
    ],
  ])("%s fails with the reason", (_name, verify, failure) => {
    const report = verify();
    expect(report.ok).toBe(false);
    expect(report.failures).toContainEqual(failure);
  });
});
