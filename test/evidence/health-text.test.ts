// Ledger health as status lines (health-text.ts): ok, a changed workflow, a refusal, quarantine notes and how stages were completed.
import { describe, expect, it } from "vitest";
import { ledgerHealthLines } from "../../runtime/evidence/index.js";

describe("ledgerHealthLines", () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      "ok and bound",
      { health: "ok", records: 12, fingerprint: "ed25519:ab", binding: { seq: 2, reason: "init" } },
      ["Evidence ledger: ok (12 records, key ed25519:ab, workflow and pack bound at record 2 by init)."],
    ],
    [
      "a new ledger: no key or binding yet",
      { health: "ok", records: 0, binding: null },
      ["Evidence ledger: ok (0 records, key ?)."],
    ],
    [
      "refused",
      { health: "refused", problem: { code: "LEDGER_REPLAY", message: "an older ledger was put back." } },
      ["Evidence ledger: REFUSED [LEDGER_REPLAY]: an older ledger was put back."],
    ],
    [
      "the bound workflow differs",
      {
        health: "changed",
        records: 5,
        fingerprint: "ed25519:cd",
        binding: { seq: 1, reason: "init" },
        problem: { code: "WORKFLOW_CHANGED", message: "stage 0 'a' was renamed." },
      },
      [
        "Evidence ledger: bound workflow differs (5 records, key ed25519:cd, workflow and pack bound at record 1 by init).",
        "  [WORKFLOW_CHANGED] stage 0 'a' was renamed.",
      ],
    ],
    [
      "quarantined lines and completions without the gate",
      {
        health: "ok",
        records: 30,
        fingerprint: "ed25519:ef",
        binding: null,
        quarantined: [
          {
            seq: 9,
            lines: 2,
            reasons: ["record 7 content does not match its hash (edited)", "records 8-8 are missing"],
          },
        ],
        completions: [
          { index: 0, name: "build", gate: "enforced" },
          { index: 1, name: "test", gate: "skills_disabled" },
          { index: 2, name: "ship", gate: "gate_off", changed_at: 28 },
          { index: 3, name: "plain", gate: "no_skill_list" },
        ],
      },
      [
        "Evidence ledger: ok (30 records, key ed25519:ef).",
        "  quarantined at record 9 (2 line(s) kept in place, not applied): record 7 content does not match its hash (edited); records 8-8 are missing",
        "  stage 1 'test' was completed with skills disabled (no skill evidence was required).",
        "  stage 2 'ship' was completed with the skill gate off (force_use_skill: false).",
        "  stage 2 'ship' was completed before a workflow or pack change recorded at record 28.",
      ],
    ],
  ])("%s", (_name, health, lines) => {
    expect(ledgerHealthLines(health)).toEqual(lines);
  });
});
