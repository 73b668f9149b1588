// runtime/scan/severity.ts: the severity order, thresholds, the critical findings that block, and counts per severity.
import { describe, expect, it } from "vitest";
import {
  atLeast,
  countBySeverity,
  criticalFindings,
  isSeverity,
  severityRank,
} from "../../runtime/scan/severity.js";
import { type Finding, type ScanSeverity, SEVERITIES } from "../../runtime/scan/types.js";

function finding(severity: ScanSeverity, ruleId = `r.${severity}`): Finding {
  return {
    ruleId,
    severity,
    message: "m",
    file: "f.py",
    line: 1,
    column: 1,
    excerpt: "",
    language: "python",
  };
}

describe("severityRank and atLeast", () => {
  it("orders info < low < medium < high < critical", () => {
    expect(SEVERITIES.map(severityRank)).toEqual([0, 1, 2, 3, 4]);
    expect([...SEVERITIES].sort((a, b) => severityRank(a) - severityRank(b))).toEqual([
      "info",
      "low",
      "medium",
      "high",
      "critical",
    ]);
  });

  it.each([
    ["critical", "high", true],
    ["high", "high", true],
    ["medium", "high", false],
    ["info", "info", true],
    ["info", "low", false],
  ] as const)("atLeast(%s, %s) is %s", (severity, minimum, expected) => {
    expect(atLeast(severity, minimum)).toBe(expected);
  });
});

describe("isSeverity", () => {
  it.each([
    ["critical", true],
    ["info", true],
    ["CRITICAL", false],
    ["severe", false],
    ["", false],
  ])("%j is %s", (value, expected) => {
    expect(isSeverity(value)).toBe(expected);
  });
});

describe("criticalFindings and countBySeverity", () => {
  const findings = [
    finding("high"),
    finding("critical", "a"),
    finding("info"),
    finding("critical", "b"),
    finding("low"),
  ];

  it("keeps only the critical findings, in their order", () => {
    expect(criticalFindings(findings).map((f) => f.ruleId)).toEqual(["a", "b"]);
    expect(criticalFindings([finding("high")])).toEqual([]);
  });

  it("counts every severity, zero included", () => {
    expect(countBySeverity(findings)).toEqual({ info: 1, low: 1, medium: 0, high: 1, critical: 2 });
    expect(countBySeverity([])).toEqual({ info: 0, low: 0, medium: 0, high: 0, critical: 0 });
  });
});
