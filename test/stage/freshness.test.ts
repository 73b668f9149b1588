// Evidence freshness (stage/freshness.ts) as pure functions: when the last Check and the last accepted SetSkillUsage still count.
import { describe, expect, it } from "vitest";
import { changedOutputs, checkFreshness, usageFreshness } from "../../runtime/stage/index.js";
import { rec, SKILL, stateOf } from "../evidence/core.js";

const outputs = (hash: string, files: Record<string, string> = {}) => ({ hash, files, problems: [] });
const check = (data: Record<string, unknown>) =>
  rec("check", {
    passed: true,
    evidenceVersion: 1,
    fingerprint: "A",
    files: { "out/r.md": "1:1:aa" },
    ...data,
  });
const usage = (data: Record<string, unknown>) =>
  rec("set_skill_usage", {
    accepted: true,
    evidenceVersion: 1,
    fingerprint: "A",
    files: { "out/r.md": "1:1:aa" },
    claims: {},
    ...data,
  });
const listed = () => [rec("stage_enter", { name: "build" }), rec("list", { skills: [SKILL] })];
const NEW = "new ListSkill/ReadTextFile/RunSkillScript evidence was recorded after";

describe("checkFreshness", () => {
  it.each([
    {
      name: "no Check yet",
      records: listed(),
      now: outputs("A"),
      ok: false,
      reason: "`Check` has not run on the current evidence of this stage",
    },
    {
      name: "a failed Check",
      records: [...listed(), check({ passed: false })],
      now: outputs("A"),
      ok: false,
      reason: "the last `Check` failed",
    },
    {
      name: "new evidence after the Check",
      records: [
        ...listed(),
        check({}),
        rec("read", { skill: SKILL, startLine: 1, endLine: 3, totalLines: 3 }),
      ],
      now: outputs("A"),
      ok: false,
      reason: `${NEW} the last \`Check\``,
    },
    {
      name: "an output changed after the Check",
      records: [...listed(), check({})],
      now: outputs("B", { "out/r.md": "2:5:bb", "out/new.md": "1:1:cc" }),
      ok: false,
      reason: "output files changed after the last `Check`: out/new.md, out/r.md",
    },
    {
      name: "fingerprints differ but no entry names why",
      records: [...listed(), check({})],
      now: outputs("B", { "out/r.md": "1:1:aa" }),
      ok: false,
      reason: "output files changed after the last `Check`: (contents differ)",
    },
    { name: "fresh", records: [...listed(), check({})], now: outputs("A"), ok: true, reason: "" },
    {
      name: "a check_reset drops it",
      records: [...listed(), check({}), rec("check_reset")],
      now: outputs("A"),
      ok: false,
      reason: "`Check` has not run on the current evidence of this stage",
    },
  ])("$name", ({ records, now, ok, reason }) => {
    expect(checkFreshness(stateOf(...records), now)).toEqual({ ok, reason });
  });
});

describe("usageFreshness", () => {
  it.each([
    {
      name: "no usage accepted",
      records: listed(),
      now: outputs("A"),
      ok: false,
      reason: "SetSkillUsage has not accepted a usage report in this stage",
    },
    {
      name: "a rejected usage does not count",
      records: [...listed(), usage({ accepted: false })],
      now: outputs("A"),
      ok: false,
      reason: "SetSkillUsage has not accepted a usage report in this stage",
    },
    {
      name: "new evidence after the usage",
      records: [...listed(), usage({}), rec("use", { skills: [SKILL] })],
      now: outputs("A"),
      ok: false,
      reason: `${NEW} SetSkillUsage accepted the usage`,
    },
    {
      name: "an output removed after the usage",
      records: [...listed(), usage({})],
      now: outputs("C", { "out/r.md": "missing" }),
      ok: false,
      reason: "output files changed after the `Check` that SetSkillUsage relied on: out/r.md",
    },
    { name: "fresh", records: [...listed(), usage({})], now: outputs("A"), ok: true, reason: "" },
  ])("$name", ({ records, now, ok, reason }) => {
    expect(usageFreshness(stateOf(...records), now)).toEqual({ ok, reason });
  });
});

describe("changedOutputs", () => {
  it("names added, removed and changed files, never a folder that appeared", () => {
    expect(
      changedOutputs(
        { a: "1:1:x", b: "1:1:y", gone: "1:1:z" },
        { a: "1:1:x", b: "2:2:w", added: "1:1:q", sub: "folder" },
      ),
    ).toEqual(["added", "b", "gone"]);
  });
});
