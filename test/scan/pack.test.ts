// The bundled pack (skills/) must scan without critical findings, or level-3 runs would refuse our own skills.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { criticalFindings, formatFinding, scanFiles } from "../../runtime/scan/index.js";

const PACK = resolve(import.meta.dirname, "..", "..", "skills");

describe("scanning the bundled pack", () => {
  it("yields no critical finding", async () => {
    expect(existsSync(join(PACK, "runners", "python-runner", "SKILL.md"))).toBe(true);
    const findings = await scanFiles([PACK]);
    expect(criticalFindings(findings).map(formatFinding)).toEqual([]);
  });
});
