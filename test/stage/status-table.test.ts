// The terminal view of the status report: rows (done/current/pending, evidence for the current stage only) and the table.
import { describe, expect, it } from "vitest";
import type { StatusReport } from "../../runtime/stage/status-render.js";
import { renderStatusTable, stageRows } from "../../runtime/stage/status-table.js";

const ledger = { health: "ok", records: 4, fingerprint: "ed25519:abc", binding: { seq: 3, reason: "init" } };

function report(): StatusReport {
  return {
    stages: [
      { index: 0, name: "review", status: "completed", force_use_skill: true, skill_list: ["a/x"] },
      { index: 1, name: "report", status: "current", force_use_skill: true, skill_list: ["a/x", "a/y"] },
      { index: 2, name: "summary", status: "pending", force_use_skill: true, skill_list: [] },
    ],
    current_stage_index: 1,
    current_stage_name: "report",
    finished: false,
    skills_enabled: true,
    ledger,
    description: "",
    tasks: [],
    skills: [
      {
        id: "a/x",
        listed: true,
        read: true,
        used: true,
        not_applicable: false,
        read_coverage: "all",
        present: true,
      },
      {
        id: "a/y",
        listed: true,
        read: true,
        used: false,
        not_applicable: true,
        reason: "no C code",
        read_coverage: "all",
        present: true,
      },
    ],
    skill_root_missing: false,
    check_passed: true,
    check_reason: "",
    usage_validated: false,
    usage_reason: "x",
    gate: { applies: true, ok: true },
  };
}

describe("stageRows", () => {
  it("maps statuses to done/current/pending and shows evidence only for the current stage", () => {
    expect(stageRows(report())).toEqual([
      {
        index: 0,
        name: "review",
        state: "done",
        force_use_skill: true,
        skills: [{ id: "a/x", listed: null, read: null, used: null, not_applicable: null }],
        check_passed: null,
        usage_validated: null,
      },
      {
        index: 1,
        name: "report",
        state: "current",
        force_use_skill: true,
        skills: [
          { id: "a/x", listed: true, read: true, used: true, not_applicable: null },
          { id: "a/y", listed: true, read: true, used: false, not_applicable: "no C code" },
        ],
        check_passed: true,
        usage_validated: false,
      },
      {
        index: 2,
        name: "summary",
        state: "pending",
        force_use_skill: true,
        skills: [],
        check_passed: null,
        usage_validated: null,
      },
    ]);
  });
});

describe("renderStatusTable", () => {
  const plain = (_name: string, text: string) => text;

  it("prints the stage table, the current stage's evidence, notes and the ledger line", () => {
    expect(renderStatusTable(report(), { workspace: "/w/ws", colour: plain, notes: ["a note"] })).toBe(
      [
        "Workspace /w/ws",
        "Skills: enabled",
        "",
        `${"#".padEnd(4)}${"Stage".padEnd(32)}${"State".padEnd(10)}${"Check".padEnd(7)}Skills`,
        `${"0".padEnd(4)}${"review".padEnd(32)}${"done".padEnd(10)}${"-".padEnd(7)}a/x`,
        `${"1".padEnd(4)}${"report".padEnd(32)}${"current".padEnd(10)}${"yes".padEnd(7)}a/x, a/y`,
        `${"2".padEnd(4)}${"summary".padEnd(32)}${"pending".padEnd(10)}${"-".padEnd(7)}none`,
        "",
        "Skill evidence of stage 'report' (required before Complete):",
        `${"Skill".padEnd(40)}${"Listed".padEnd(8)}${"Read".padEnd(6)}${"Used".padEnd(6)}Not Applicable`,
        `${"a/x".padEnd(40)}${"yes".padEnd(8)}${"yes".padEnd(6)}${"yes".padEnd(6)}-`,
        `${"a/y".padEnd(40)}${"yes".padEnd(8)}${"yes".padEnd(6)}${"no".padEnd(6)}yes: no C code`,
        "SetSkillUsage accepted the current evidence: no",
        "",
        "Skill notes:",
        "  a note",
        "",
        "Evidence ledger: ok (4 records, key ed25519:abc, workflow and pack bound at record 3 by init).",
      ].join("\n"),
    );
  });

  it("pads by visible width when colour codes are added", () => {
    const ansi = (_name: string, text: string) => `\u001b[1m${text}\u001b[22m`;
    const line = renderStatusTable(report(), { workspace: "/w", colour: ansi }).split("\n")[5]!;
    expect(line.replace(/\u001b\[\d+m/g, "")).toBe(
      `${"1".padEnd(4)}${"report".padEnd(32)}${"current".padEnd(10)}${"yes".padEnd(7)}a/x, a/y`,
    );
  });

  it("a finished workflow says so", () => {
    const done: StatusReport = {
      stages: [{ index: 0, name: "review", status: "completed", force_use_skill: false, skill_list: [] }],
      current_stage_index: null,
      current_stage_name: null,
      finished: true,
      skills_enabled: false,
      ledger,
    };
    expect(renderStatusTable(done, { workspace: "/w", colour: (_n, t) => t })).toContain(
      "\n\nThe workflow is finished: every stage is complete.\n",
    );
  });
});
