// Level 3 gate: runs the static scan over the script and refuses critical findings that were not approved.
import { basename } from "node:path";
import { outcomes, type RunOutcome } from "./outcome.js";
import type { RunRequest, ScanFinding } from "./types.js";

export interface ScanGateResult {
  /** Why the run is refused, or null to go on. */
  refusal: RunOutcome | null;
  /** Every finding, when the scan ran. */
  findings?: ScanFinding[];
}

function describeFindings(findings: ScanFinding[]): string {
  return findings.map((finding) => `${finding.file}:${finding.line} ${finding.message}`).join("; ");
}

export async function scanGate(req: RunRequest): Promise<ScanGateResult> {
  const script = req.scriptName ?? basename(req.scriptPath);
  if (req.scan === undefined) {
    return {
      refusal: outcomes.refused(
        `script '${script}' needs the static scan at sandbox level 3 but none was provided`,
        "pass the scan (runtime/scan scanFiles) or lower exec.sandbox_level to 2",
      ),
    };
  }
  const findings = await req.scan(req.scanPaths ?? [req.scriptPath]);
  const critical = findings.filter((finding) => finding.severity === "critical");
  if (critical.length > 0 && req.scanApproved !== true) {
    return {
      refusal: outcomes.refused(
        `script '${script}' has ${critical.length} critical scan finding(s): ${describeFindings(critical)}`,
        "remove them, or approve the skill in exec.approve_scan_findings after review",
      ),
      findings,
    };
  }
  return { refusal: null, findings };
}
