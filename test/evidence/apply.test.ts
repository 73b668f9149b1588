// Applying one verified record to the evidence state (apply.ts) as a pure function: exact states per record kind.
import { describe, expect, it } from "vitest";
import { applyRecord } from "../../runtime/evidence/index.js";
import { rec, SKILL, stateOf, TEXT_SKILL } from "./core.js";

describe("applyRecord", () => {
  it("list and use set a flag once and bump the evidence version only on change", () => {
    const state = stateOf(
      rec("stage_enter", { name: "build" }),
      rec("list", { skills: [SKILL] }),
      rec("list", { skills: [SKILL] }),
    );
    expect(state.evidenceVersion).toBe(1);
    expect(state.skills[SKILL]).toEqual({
      list: true,
      read: false,
      use: false,
      readRanges: [],
      totalLines: 0,
    });
    applyRecord(state, rec("use", { skills: [SKILL, 7] }));
    expect(state.evidenceVersion).toBe(2);
    expect(state.skills[SKILL]!.use).toBe(true);
  });

  it("reads merge ranges; whole coverage sets read; a different file length starts over", () => {
    const read = (a: number, b: number, total: number) =>
      rec("read", { skill: SKILL, startLine: a, endLine: b, totalLines: total });
    const state = stateOf(rec("stage_enter", { name: "build" }), read(1, 3, 10), read(6, 8, 10));
    expect(state.skills[SKILL]).toMatchObject({
      read: false,
      readRanges: [
        [1, 3],
        [6, 8],
      ],
      totalLines: 10,
    });
    expect(state.evidenceVersion).toBe(0);
    applyRecord(state, read(4, 5, 10));
    applyRecord(state, read(9, 99, 10));
    expect(state.skills[SKILL]).toMatchObject({ read: true, readRanges: [[1, 10]] });
    expect(state.evidenceVersion).toBe(1);
    applyRecord(state, read(1, 2, 20));
    expect(state.skills[SKILL]).toMatchObject({ read: true, readRanges: [[1, 2]], totalLines: 20 });
  });

  it.each([
    { name: "start line 0", data: { skill: SKILL, startLine: 0, endLine: 3, totalLines: 3 } },
    { name: "end before start", data: { skill: SKILL, startLine: 3, endLine: 2, totalLines: 3 } },
    { name: "no file length", data: { skill: SKILL, startLine: 1, endLine: 3, totalLines: 0 } },
    { name: "no skill", data: { startLine: 1, endLine: 3, totalLines: 3 } },
    { name: "non-numeric lines", data: { skill: SKILL, startLine: "1", endLine: 3, totalLines: 3 } },
  ])("a malformed read is ignored: $name", ({ data }) => {
    expect(stateOf(rec("stage_enter", { name: "build" }), rec("read", data)).skills).toEqual({});
  });

  it("records of another stage are ignored", () => {
    const state = stateOf(rec("stage_enter", { name: "build" }), rec("list", { skills: [SKILL] }, 1));
    expect(state.skills).toEqual({});
  });

  it("check, check_reset and an accepted usage are kept; a rejected usage is not", () => {
    const state = stateOf(
      rec("stage_enter", { name: "build" }),
      rec("check", {
        passed: true,
        evidenceVersion: 0,
        fingerprint: "F",
        files: { a: "1", b: 2 },
        message: "ok",
      }),
    );
    expect(state.check).toEqual({
      seq: expect.any(Number),
      passed: true,
      evidenceVersion: 0,
      fingerprint: "F",
      files: { a: "1" },
      message: "ok",
    });
    applyRecord(state, rec("set_skill_usage", { accepted: false, claims: { x: {} } }));
    expect(state.usage).toBeNull();
    applyRecord(
      state,
      rec("set_skill_usage", {
        accepted: true,
        evidenceVersion: 0,
        fingerprint: "F",
        claims: { [SKILL]: { list: true, read: true, use: true } },
      }),
    );
    expect(state.usage).toMatchObject({
      evidenceVersion: 0,
      fingerprint: "F",
      files: {},
      claims: { [SKILL]: { use: true } },
    });
    applyRecord(state, rec("check_reset"));
    expect(state.check).toBeNull();
  });

  it("a passing complete summarises the stage and enters the next with fresh evidence", () => {
    const state = stateOf(
      rec("stage_enter", { name: "build" }),
      rec("bind", { workflowDigest: "W", manifestDigest: "M", manifest: {}, useSkill: true }),
      rec("list", { skills: [SKILL, TEXT_SKILL] }),
      rec("read", { skill: SKILL, startLine: 1, endLine: 2, totalLines: 2 }),
      rec("set_skill_usage", {
        accepted: true,
        evidenceVersion: 2,
        fingerprint: "F",
        claims: {
          [SKILL]: { list: true, read: true, use: true },
          [TEXT_SKILL]: { list: true, read: false, use: false, reason: "r" },
        },
      }),
      rec("complete", { passed: false }),
    );
    expect(state.completed).toEqual([]);
    const before = state.evidenceVersion;
    applyRecord(state, rec("complete", { passed: true, gate: "enforced", next: 1, nextName: "test" }));
    expect(state.completed).toEqual([
      {
        index: 0,
        name: "build",
        gate: "enforced",
        workflowDigest: "W",
        evidence: {
          [SKILL]: { list: true, read: true, use: true },
          [TEXT_SKILL]: { list: true, read: false, use: false, notApplicableReason: "r" },
        },
      },
    ]);
    expect(state).toMatchObject({
      stageIndex: 1,
      stageName: "test",
      finished: false,
      skills: {},
      check: null,
      usage: null,
    });
    expect(state.evidenceVersion).toBe(before + 1);
    applyRecord(state, rec("complete", { passed: true, next: 2, finished: true }, 1));
    expect(state).toMatchObject({ stageIndex: 2, stageName: null, finished: true });
    // A finished workflow ignores stage records until a stage is entered again.
    applyRecord(state, rec("list", { skills: [SKILL] }, 2));
    expect(state.skills).toEqual({});
  });

  it("a bind touching the current stage resets its evidence and marks completed stages it touched", () => {
    const state = stateOf(
      rec("stage_enter", { name: "a" }),
      rec("complete", { passed: true, next: 1, nextName: "b" }),
      rec("list", { skills: [SKILL] }, 1),
    );
    const bind = rec("bind", { workflowDigest: "W2", affectedStages: [0, 1] }, 1);
    applyRecord(state, bind);
    expect(state.completed[0]!.changedAt).toBe(bind.seq);
    expect(state.skills).toEqual({});
    expect(state.binding).toMatchObject({ workflowDigest: "W2", manifestDigest: "", useSkill: true });
  });

  it("quarantine notes are kept (last 50) and reset the stage unless reset: false", () => {
    const state = stateOf(rec("stage_enter", { name: "a" }), rec("list", { skills: [SKILL] }));
    applyRecord(state, rec("quarantine", { lines: 1, reasons: ["torn"], reset: false }));
    expect(state.skills[SKILL]!.list).toBe(true);
    applyRecord(state, rec("quarantine", { lines: 2, reasons: ["edited", 3] }));
    expect(state.skills).toEqual({});
    expect(state.quarantined.map((q) => q.reasons)).toEqual([["torn"], ["edited"]]);
    for (let i = 0; i < 60; i += 1) applyRecord(state, rec("quarantine", { reset: false }));
    expect(state.quarantined).toHaveLength(50);
  });

  it("genesis and adopt set the identity; run counts receipts; neither touches stage evidence", () => {
    const state = stateOf(
      rec("genesis", { workspace: "/w", initId: "i1", publicKey: "P", fingerprint: "F", home: "/h" }),
      rec("stage_enter", { name: "a" }),
      rec("list", { skills: [SKILL] }),
      rec("run", {}),
      rec("adopt", { workspace: "/w2", initId: "i2", publicKey: "Q", fingerprint: "G" }),
    );
    expect(state.identity).toEqual({ workspace: "/w2", initId: "i2", publicKey: "Q", fingerprint: "G" });
    expect(state.runs).toBe(1);
    expect(state.skills[SKILL]!.list).toBe(true);
  });
});
