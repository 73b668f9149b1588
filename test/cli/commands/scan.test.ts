// `skillgate scan` through the real CLI process: exact output for the fixture skills, JSON mode, exit codes 0/1/2.
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempRoot, tempRoot } from "../../support/workspace.js";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const HOSTILE = "test/fixtures/scan/hostile-skill";
const BENIGN = "test/fixtures/scan/benign-skill";
const ADVISORY = "The scan is advisory below critical and never a substitute for the sandbox.";

let temp: TempRoot;
let home: string;
beforeAll(() => {
  temp = tempRoot("skillgate-scan-cli-");
  home = temp.dir;
});
afterAll(() => temp.cleanup());

function skillgate(...args: string[]) {
  return execa(TSX, [join(ROOT, "runtime", "cli", "main.ts"), ...args], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: "1", SKILLGATE_HOME: home },
  });
}

const MESSAGES = {
  downloadExec:
    "Downloaded content is piped straight into a shell or interpreter (curl | sh): whatever the server sends runs unreviewed. Download to a file, verify a checksum, review, then run.",
  base64Shell:
    "base64-decoded text is run by a shell or interpreter: the command that really runs is hidden from review and from this scan. Remove it; write the commands out.",
  rmRoot:
    "A recursive rm targets /, ~ or $HOME: it deletes the system or the user's files. Delete only paths under the workspace or OUT, spelled out in full.",
  privateKey:
    "The script names a private key file (id_rsa, id_ed25519, GnuPG private keys). A skill has no reason to read the user's private keys; this is how credentials get stolen. Remove it.",
  base64Exec:
    "Decoded data (base64, hex, zlib, marshal) is executed: the code that really runs is hidden from review and from this scan. This is how malware ships payloads. Remove it; ship readable code.",
  base64Eval:
    'Decoded data (atob, Buffer.from(..., "base64"), fromCharCode) is evaluated: the code that really runs is hidden from review and from this scan. Remove it; ship readable code.',
};

describe("skillgate scan", () => {
  it("prints every finding of the hostile skill as file:line:col severity rule-id message and exits 1", async () => {
    const result = await skillgate("scan", HOSTILE);
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split("\n");
    expect(lines).toHaveLength(20);
    expect(lines.filter((line) => line.split(" ")[1] === "critical")).toEqual([
      `${HOSTILE}/SKILL.md:11:1 critical any.download-exec ${MESSAGES.downloadExec}`,
      `${HOSTILE}/scripts/loader.js:4:1 critical js.base64-eval ${MESSAGES.base64Eval}`,
      `${HOSTILE}/scripts/setup.sh:3:23 critical any.base64-shell ${MESSAGES.base64Shell}`,
      `${HOSTILE}/scripts/setup.sh:5:1 critical any.rm-rf-root ${MESSAGES.rmRoot}`,
      `${HOSTILE}/scripts/steal.py:5:39 critical any.private-key ${MESSAGES.privateKey}`,
      `${HOSTILE}/scripts/steal.py:7:1 critical py.base64-exec ${MESSAGES.base64Exec}`,
    ]);
    expect(lines.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      `${HOSTILE}/SKILL.md:11:1 critical any.download-exec`,
      `${HOSTILE}/SKILL.md:11:1 low sh.network`,
      `${HOSTILE}/hooks.ts:4:9 medium js.dynamic-import`,
      `${HOSTILE}/scripts/loader.js:2:22 medium js.child-process`,
      `${HOSTILE}/scripts/loader.js:3:13 medium js.dynamic-require`,
      `${HOSTILE}/scripts/loader.js:4:1 critical js.base64-eval`,
      `${HOSTILE}/scripts/loader.js:4:1 high js.eval`,
      `${HOSTILE}/scripts/loader.js:4:6 high js.decoded-payload-eval`,
      `${HOSTILE}/scripts/loader.js:5:15 high any.system-secrets`,
      `${HOSTILE}/scripts/notes.txt:0:0 info scan.unsupported`,
      `${HOSTILE}/scripts/run:3:1 high py.unsafe-deserialise`,
      `${HOSTILE}/scripts/setup.sh:3:23 critical any.base64-shell`,
      `${HOSTILE}/scripts/setup.sh:4:41 high any.shell-startup-file`,
      `${HOSTILE}/scripts/setup.sh:5:1 critical any.rm-rf-root`,
      `${HOSTILE}/scripts/steal.py:3:1 low py.network`,
      `${HOSTILE}/scripts/steal.py:5:34 high any.ssh-dir`,
      `${HOSTILE}/scripts/steal.py:5:39 critical any.private-key`,
      `${HOSTILE}/scripts/steal.py:7:1 critical py.base64-exec`,
      `${HOSTILE}/scripts/steal.py:7:1 high py.eval-exec`,
      `${HOSTILE}/scripts/steal.py:7:13 high py.decoded-payload-exec`,
    ]);
    expect(result.stderr).toBe(`20 findings (6 critical, 8 high, 3 medium, 2 low, 1 info). ${ADVISORY}`);
  });

  it("exits 0 for a skill without critical findings", async () => {
    const result = await skillgate("scan", BENIGN);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `${BENIGN}/scripts/report.py:16:15 medium py.process-spawn The script starts other programs. Check which program and arguments run, pass arguments as a list (never a shell string), and expect the sandbox to limit what they can do.`,
    );
    expect(result.stderr).toBe(`1 finding (0 critical, 0 high, 1 medium, 0 low, 0 info). ${ADVISORY}`);
  });

  it("scans a single file and a root holding several skills", async () => {
    const file = await skillgate("scan", `${HOSTILE}/scripts/setup.sh`, "--min-severity", "critical");
    expect(file.exitCode).toBe(1);
    expect(file.stdout).toBe(
      [
        `${HOSTILE}/scripts/setup.sh:3:23 critical any.base64-shell ${MESSAGES.base64Shell}`,
        `${HOSTILE}/scripts/setup.sh:5:1 critical any.rm-rf-root ${MESSAGES.rmRoot}`,
      ].join("\n"),
    );
    const root = await skillgate("scan", "test/fixtures/scan", "--min-severity", "critical");
    expect(root.exitCode).toBe(1);
    expect(root.stdout.split("\n")).toHaveLength(6);
    expect(root.stderr).toBe(`6 findings (6 critical, 0 high, 0 medium, 0 low, 0 info). ${ADVISORY}`);
  });

  it("--min-severity hides lower findings but never changes the exit code", async () => {
    const result = await skillgate("scan", BENIGN, "--min-severity", "high");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`0 findings (0 critical, 0 high, 0 medium, 0 low, 0 info). ${ADVISORY}`);
  });

  it("--json prints ok, path, counts and the findings", async () => {
    const result = await skillgate(
      "scan",
      `${HOSTILE}/scripts/steal.py`,
      "--json",
      "--min-severity",
      "critical",
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      path: `${HOSTILE}/scripts/steal.py`,
      counts: { info: 0, low: 0, medium: 0, high: 0, critical: 2 },
      findings: [
        {
          ruleId: "any.private-key",
          severity: "critical",
          message: MESSAGES.privateKey,
          file: `${HOSTILE}/scripts/steal.py`,
          line: 5,
          column: 39,
          excerpt: 'KEY = open(os.path.expanduser("~/.ssh/id_rsa")).read()',
          language: "python",
        },
        {
          ruleId: "py.base64-exec",
          severity: "critical",
          message: MESSAGES.base64Exec,
          file: `${HOSTILE}/scripts/steal.py`,
          line: 7,
          column: 1,
          excerpt: 'exec(base64.b64decode("cHJpbnQoJ2hpJyk="))',
          language: "python",
        },
      ],
    });
    const clean = await skillgate("scan", BENIGN, "--json");
    expect(clean.exitCode).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ ok: true, counts: { medium: 1, critical: 0 } });
  });

  it.each([
    [
      "missing PATH",
      [],
      "error [USAGE]: skillgate scan: missing PATH. Fix: name a file, a skill folder or a skill root, e.g. `skillgate scan skills/`.",
    ],
    [
      "a PATH that does not exist",
      ["no/such/path"],
      "error [PATH_NOT_FOUND]: cannot scan no/such/path: ENOENT: no such file or directory, stat 'no/such/path'. Fix: pass an existing file, skill folder or skill root.",
    ],
  ])("exits 2 for %s", async (_name, args, stderr) => {
    const result = await skillgate("scan", ...args);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(stderr);
  });

  it("exits 2 with a JSON error for missing PATH under --json", async () => {
    const result = await skillgate("scan", "--json");
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: {
        code: "USAGE",
        message:
          "skillgate scan: missing PATH. Fix: name a file, a skill folder or a skill root, e.g. `skillgate scan skills/`.",
        details: {},
      },
    });
  });

  it("exits 2 for an unknown --min-severity", async () => {
    const result = await skillgate("scan", BENIGN, "--min-severity", "severe");
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      "error: option '--min-severity <level>' argument 'severe' is invalid. Allowed choices are info, low, medium, high, critical.",
    );
  });

  it("exits 2 naming the problems of a bad --rules file", async () => {
    const rules = join(home, "rules.yaml");
    await writeFile(
      rules,
      "version: 1\nrules:\n  - {id: py.x, pattern: x, languages: [cobol], severity: low, message: m}\n",
    );
    const result = await skillgate("scan", BENIGN, "--rules", rules);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      `error [CONFIG_INVALID]: invalid scan rules file ${rules} (1 problem):\n` +
        '  - rules[0].languages[0] (rule py.x): expected one of python|javascript|typescript|shell, got "cobol"\n' +
        "Fix each entry above; the format is described at the top of the bundled runtime/scan/rules.yaml.",
    );
  });
});
