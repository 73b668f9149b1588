// Text forms of findings for the CLI and for refusal messages, plus the advisory note users must read.
import type { Finding } from "./types.js";

/**
 * README-ready statement of what the scan is and is not. Keep in sync with the header of rules.yaml.
 */
export const SCAN_ADVISORY_NOTE =
  "The static scan is advisory below `critical` and never a substitute for the sandbox: it matches regular " +
  "expressions against source text, so indirection, encodings it does not know and code fetched at run time " +
  "pass unseen, and a clean scan proves nothing. Only `critical` findings (decoded data executed, private keys " +
  "read, downloads piped to a shell, deleting / or the home folder, reverse shells) block: `skillgate scan` exits 1 " +
  "and sandbox level 3 refuses the run unless approved. Everything else is a prompt for human review.";

/** `file:line:col severity rule-id message` — one line, as printed by `skillgate scan`. */
export function formatFinding(finding: Finding): string {
  return `${finding.file}:${finding.line}:${finding.column} ${finding.severity} ${finding.ruleId} ${finding.message}`;
}
