// Severity ordering helpers shared by the scanner, the CLI and level-3 runs.
import { type Finding, type ScanSeverity, SEVERITIES } from "./types.js";

export function severityRank(severity: ScanSeverity): number {
  return SEVERITIES.indexOf(severity);
}

export function atLeast(severity: ScanSeverity, minimum: ScanSeverity): boolean {
  return severityRank(severity) >= severityRank(minimum);
}

export function isSeverity(value: string): value is ScanSeverity {
  return (SEVERITIES as readonly string[]).includes(value);
}

/** The findings that refuse a level-3 run and make `skillgate scan` exit 1. */
export function criticalFindings(findings: readonly Finding[]): Finding[] {
  return findings.filter((finding) => finding.severity === "critical");
}

export function countBySeverity(findings: readonly Finding[]): Record<ScanSeverity, number> {
  const counts = { info: 0, low: 0, medium: 0, high: 0, critical: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}
