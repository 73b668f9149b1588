// runtime/exec/scan-gate.ts: level 3 runs the real static scan over the script (and hooks) and refuses unapproved critical findings.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanGate } from "../../runtime/exec/scan-gate.js";
import type { ScanFinding } from "../../runtime/exec/types.js";
import { scanFiles } from "../../runtime/scan/index.js";
import { makeHarness } from "./harness.js";

const h = makeHarness("skillgate-scan-gate-");
afterAll(() => h.cleanup());

const CRITICAL = "import base64\nexec(base64.b64decode(PAYLOAD))\n";

describe("scanGate", () => {
  it("refuses a level-3 run when no scan was provided", async () => {
    h.addScript("clean.py", "print('hi')\n");
    expect(await scanGate(await h.request("clean.py", { sandboxLevel: 3 }))).toEqual({
      refusal: {
        status: "refused",
        code: "SCAN_REFUSED",
        message: "script 'clean.py' needs the static scan at sandbox level 3 but none was provided",
        fix: "pass the scan (runtime/scan scanFiles) or lower exec.sandbox_level to 2",
      },
    });
  });

  it("lets a clean script through with every finding of the scan", async () => {
    h.addScript("spawns.py", "import subprocess\nsubprocess.run(['ls'])\n");
    const gate = await scanGate(await h.request("spawns.py", { sandboxLevel: 3, scan: scanFiles }));
    expect(gate.refusal).toBeNull();
    expect(gate.findings?.map((finding) => finding.severity)).toEqual(["medium"]);
  });

  it("refuses critical findings, naming each with its file and line", async () => {
    const script = h.addScript("payload.py", CRITICAL);
    const gate = await scanGate(await h.request("payload.py", { sandboxLevel: 3, scan: scanFiles }));
    const critical = (gate.findings ?? []).filter((finding) => finding.severity === "critical");
    expect(critical.map((finding) => `${finding.file}:${finding.line}`)).toEqual([`${script}:2`]);
    expect(gate.refusal).toEqual({
      status: "refused",
      code: "SCAN_REFUSED",
      message: `script 'payload.py' has 1 critical scan finding(s): ${script}:2 ${critical[0]?.message}`,
      fix: "remove them, or approve the skill in exec.approve_scan_findings after review",
    });
    expect(gate.findings?.length).toBeGreaterThan(1);
  });

  it("lets approved critical findings through, still reporting them", async () => {
    h.addScript("payload.py", CRITICAL);
    const gate = await scanGate(
      await h.request("payload.py", { sandboxLevel: 3, scan: scanFiles, scanApproved: true }),
    );
    expect(gate.refusal).toBeNull();
    expect(gate.findings?.some((finding) => finding.severity === "critical")).toBe(true);
  });

  it("scans the paths it is given (the script and its skill's hooks.ts) and names the script by scriptName", async () => {
    h.addScript("helper.mjs", "console.log('compiled copy')\n");
    const hooks = join(h.skillDir, "hooks.ts");
    writeFileSync(hooks, "const k = require('fs').readFileSync(process.env.HOME + '/.ssh/id_rsa');\n");
    const scanned: string[][] = [];
    const scan = async (paths: string[]): Promise<ScanFinding[]> => {
      scanned.push(paths);
      return scanFiles(paths);
    };
    const gate = await scanGate(
      await h.request("helper.mjs", {
        sandboxLevel: 3,
        scan,
        scanPaths: [join(h.scriptsDir, "helper.mjs"), hooks],
        scriptName: "helper.ts",
      }),
    );
    expect(scanned).toEqual([[join(h.scriptsDir, "helper.mjs"), hooks]]);
    expect(gate.refusal).toMatchObject({ status: "refused" });
    expect((gate.refusal as { message: string }).message).toMatch(
      /^script 'helper\.ts' has 1 critical scan finding\(s\): .*hooks\.ts:1 /,
    );
  });
});
