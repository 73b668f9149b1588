// runtime/scan/format.ts: the one-line text form of a finding and the advisory note, kept in step with rules.yaml.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatFinding, SCAN_ADVISORY_NOTE } from "../../runtime/scan/format.js";
import { defaultRulesFile } from "../../runtime/scan/rules.js";
import type { Finding } from "../../runtime/scan/types.js";

describe("formatFinding", () => {
  it.each<[string, Finding, string]>([
    [
      "a rule finding",
      {
        ruleId: "py.eval-exec",
        severity: "high",
        message: "eval()/exec() runs Python code built at run time.",
        file: "skills/s/scripts/a.py",
        line: 12,
        column: 5,
        excerpt: "exec(x)",
        language: "python",
      },
      "skills/s/scripts/a.py:12:5 high py.eval-exec eval()/exec() runs Python code built at run time.",
    ],
    [
      "a file-level note (line and column 0)",
      {
        ruleId: "scan.binary",
        severity: "info",
        message: "not scanned: binary or not UTF-8 text.",
        file: "/abs/path with space/x.bin",
        line: 0,
        column: 0,
        excerpt: "",
        language: null,
      },
      "/abs/path with space/x.bin:0:0 info scan.binary not scanned: binary or not UTF-8 text.",
    ],
  ])("%s", (_name, finding, line) => {
    expect(formatFinding(finding)).toBe(line);
  });
});

describe("SCAN_ADVISORY_NOTE", () => {
  it("says what the header of the bundled rules.yaml says: advisory below critical, never the sandbox, a clean scan proves nothing", () => {
    const header = readFileSync(defaultRulesFile(), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("#"))
      .join(" ")
      .replace(/#\s*/g, "")
      .replace(/\s+/g, " ");
    for (const claim of [
      "advisory below `critical` and never a substitute for the sandbox",
      "a clean scan proves nothing",
      "deleting / or",
      "reverse shells",
      "`skillgate scan` exit",
    ]) {
      expect(header.toLowerCase(), claim).toContain(claim.toLowerCase());
      expect(SCAN_ADVISORY_NOTE.toLowerCase(), claim).toContain(claim.toLowerCase());
    }
  });
});
