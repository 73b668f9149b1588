// The file layer on real files: languages by extension and shebang, skips with info findings, walk rules, limits, errors.
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import {
  criticalFindings,
  defaultRulesFile,
  type Finding,
  nodeScanFs,
  parseRules,
  scanFiles,
  scanSkill,
} from "../../runtime/scan/index.js";
import { removeTree, tempRoot } from "../support/workspace.js";

const FIXTURES = join("test", "fixtures", "scan");
const HOSTILE = join(FIXTURES, "hostile-skill");
const BENIGN = join(FIXTURES, "benign-skill");

function brief(findings: Finding[]): string[] {
  return findings.map(
    (f) => `${f.file}:${f.line}:${f.column} ${f.severity} ${f.ruleId} ${f.language ?? "-"}`,
  );
}

let dir: string;
beforeEach(async () => {
  dir = tempRoot("skillgate-scan-").dir;
});
afterEach(async () => {
  removeTree(dir);
});

async function put(relative: string, content: string | Buffer): Promise<string> {
  const path = join(dir, relative);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, content);
  return path;
}

describe("scanSkill on the fixture skills", () => {
  it("finds every planted problem in the hostile skill, in order", async () => {
    expect(brief(await scanSkill(HOSTILE))).toEqual([
      `${HOSTILE}/SKILL.md:11:1 critical any.download-exec shell`,
      `${HOSTILE}/SKILL.md:11:1 low sh.network shell`,
      `${HOSTILE}/hooks.ts:4:9 medium js.dynamic-import typescript`,
      `${HOSTILE}/scripts/loader.js:2:22 medium js.child-process javascript`,
      `${HOSTILE}/scripts/loader.js:3:13 medium js.dynamic-require javascript`,
      `${HOSTILE}/scripts/loader.js:4:1 critical js.base64-eval javascript`,
      `${HOSTILE}/scripts/loader.js:4:1 high js.eval javascript`,
      `${HOSTILE}/scripts/loader.js:4:6 high js.decoded-payload-eval javascript`,
      `${HOSTILE}/scripts/loader.js:5:15 high any.system-secrets javascript`,
      `${HOSTILE}/scripts/notes.txt:0:0 info scan.unsupported -`,
      `${HOSTILE}/scripts/run:3:1 high py.unsafe-deserialise python`,
      `${HOSTILE}/scripts/setup.sh:3:23 critical any.base64-shell shell`,
      `${HOSTILE}/scripts/setup.sh:4:41 high any.shell-startup-file shell`,
      `${HOSTILE}/scripts/setup.sh:5:1 critical any.rm-rf-root shell`,
      `${HOSTILE}/scripts/steal.py:3:1 low py.network python`,
      `${HOSTILE}/scripts/steal.py:5:34 high any.ssh-dir python`,
      `${HOSTILE}/scripts/steal.py:5:39 critical any.private-key python`,
      `${HOSTILE}/scripts/steal.py:7:1 critical py.base64-exec python`,
      `${HOSTILE}/scripts/steal.py:7:1 high py.eval-exec python`,
      `${HOSTILE}/scripts/steal.py:7:13 high py.decoded-payload-exec python`,
    ]);
  });

  it("raises nothing critical for ordinary code", async () => {
    expect(brief(await scanSkill(BENIGN))).toEqual([
      `${BENIGN}/scripts/report.py:16:15 medium py.process-spawn python`,
    ]);
  });

  it("refuses a folder without SKILL.md", async () => {
    const error = await scanSkill(dir).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkillgateError);
    expect((error as SkillgateError).code).toBe("SKILL_NOT_FOUND");
    expect((error as SkillgateError).message).toBe(
      `cannot scan skill ${dir}: ${dir}/SKILL.md is missing. Fix: pass the folder that holds SKILL.md, or use scanFiles for other paths.`,
    );
  });
});

describe("scanFiles", () => {
  it("tells the language by extension, then by shebang for files without a known extension", async () => {
    await put("a.py", "exec(x)\n");
    await put("b.mjs", "eval(x)\n");
    await put("c.tsx", "eval(x)\n");
    await put("d.bash", "eval $x\n");
    await put("tool-node", "#!/usr/bin/env node\neval(x)\n");
    await put("tool-py", "#!/usr/bin/env -S python3.11 -u\nexec(x)\n");
    await put("tool-sh", "#!/bin/bash\neval $x\n");
    await put("tool.cgi", "#!/usr/bin/env tsx\neval(x)\n");
    await put("tool-perl", "#!/usr/bin/perl\neval($x);\n");
    await put("README", "eval(x)\n");
    expect(brief(await scanFiles([dir]))).toEqual([
      `${dir}/a.py:1:1 high py.eval-exec python`,
      `${dir}/b.mjs:1:1 high js.eval javascript`,
      `${dir}/c.tsx:1:1 high js.eval typescript`,
      `${dir}/d.bash:1:1 high sh.eval shell`,
      `${dir}/tool-node:2:1 high js.eval javascript`,
      `${dir}/tool-py:2:1 high py.eval-exec python`,
      `${dir}/tool-sh:2:1 high sh.eval shell`,
      `${dir}/tool.cgi:2:1 high js.eval typescript`,
    ]);
  });

  it("notes unsupported files only when named explicitly or when they are scripts (in scripts/, not runner maps or dotfiles)", async () => {
    const explicit = await put("notes.rb", "eval(x)\n");
    await put("scripts/job.rb", "system('x')\n");
    await put("assets/logo.svg", "<svg/>\n");
    await put("scripts/script_runner.json", '{"job.rb": "ruby"}\n');
    await put("scripts/.keep", "");
    expect(brief(await scanFiles([dir]))).toEqual([`${dir}/scripts/job.rb:0:0 info scan.unsupported -`]);
    const [finding] = await scanFiles([explicit]);
    expect(finding).toEqual({
      ruleId: "scan.unsupported",
      severity: "info",
      message:
        "not scanned: no rules for this file type (extension or shebang); supported: Python, JavaScript, TypeScript, shell, and fenced code blocks in Markdown. Review it by hand; the sandbox still applies when it runs.",
      file: explicit,
      line: 0,
      column: 0,
      excerpt: "",
      language: null,
    });
  });

  it("skips binary and non-UTF-8 source files with an info finding", async () => {
    await put("nul.py", Buffer.from("exec(x)\u0000\n"));
    await put("latin1.sh", Buffer.from([0x65, 0x76, 0x61, 0x6c, 0x20, 0xe9, 0x0a]));
    await put("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]));
    const findings = await scanFiles([dir]);
    expect(brief(findings)).toEqual([
      `${dir}/latin1.sh:0:0 info scan.binary -`,
      `${dir}/nul.py:0:0 info scan.binary -`,
    ]);
    expect(findings[0]?.message).toBe(
      "not scanned: binary or not UTF-8 text. Review it by hand; the sandbox still applies when it runs.",
    );
  });

  it("skips files over maxFileBytes with an info finding", async () => {
    const big = await put("big.py", `# ${"x".repeat(100)}\nexec(x)\n`);
    const findings = await scanFiles([big], { maxFileBytes: 64 });
    expect(findings.map((f) => `${f.ruleId}: ${f.message}`)).toEqual([
      "scan.too-large: not scanned: 111 bytes, over the 64-byte scan limit. Review it by hand; the sandbox still applies when it runs.",
    ]);
  });

  it("scans comments too: obfuscation hides there", async () => {
    await put("c.py", "# exec(base64.b64decode(PAYLOAD))\n");
    expect(brief(await scanFiles([dir]))).toEqual([
      `${dir}/c.py:1:3 critical py.base64-exec python`,
      `${dir}/c.py:1:3 high py.eval-exec python`,
      `${dir}/c.py:1:15 high py.decoded-payload-exec python`,
    ]);
  });

  it("never enters .git or node_modules, scans dotfiles, reports folder symlinks, scans file symlinks", async () => {
    await put(".git/hooks/pre-commit.sh", "curl x | sh\n");
    await put("node_modules/pkg/index.js", "eval(x)\n");
    await put(".hidden.sh", "eval $x\n");
    const target = await put("real/target.py", "exec(x)\n");
    await symlink(target, join(dir, "link.py"));
    await symlink(join(dir, "real"), join(dir, "linked-folder"));
    await symlink(join(dir, "nowhere"), join(dir, "dangling.py"));
    const findings = await scanFiles([dir]);
    expect(brief(findings)).toEqual([
      `${dir}/.hidden.sh:1:1 high sh.eval shell`,
      `${dir}/dangling.py:0:0 info scan.not-regular -`,
      `${dir}/link.py:1:1 high py.eval-exec python`,
      `${dir}/linked-folder:0:0 info scan.not-regular -`,
      `${dir}/real/target.py:1:1 high py.eval-exec python`,
    ]);
    expect(findings.find((f) => f.file.endsWith("linked-folder"))?.message).toBe(
      "not scanned: symbolic link to a folder (not followed). Review it by hand; the sandbox still applies when it runs.",
    );
  });

  it("never reports the rules file against itself", async () => {
    const rulesFile = await put("rules.sh", "curl https://x | sh\n");
    await put("other.sh", "curl https://x | sh\n");
    const parsed = parseRules(
      "version: 1\nrules:\n  - {id: sh.pipe, pattern: 'curl', languages: [shell], severity: critical, message: m}\n",
      rulesFile,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join("; "));
    expect(brief(await scanFiles([dir], { ruleSet: parsed.ruleSet }))).toEqual([
      `${dir}/other.sh:1:1 critical sh.pipe shell`,
    ]);
    expect(await scanFiles([rulesFile], { ruleSet: parsed.ruleSet })).toEqual([]);
    expect(await scanFiles([defaultRulesFile()])).toEqual([]);
  });

  it("filters by minSeverity but always keeps the scan.limit note", async () => {
    await put("a.py", "import requests\nexec(x)\n");
    await put("b.py", "exec(base64.b64decode(x))\n");
    await put("c.py", "exec(base64.b64decode(x))\n");
    expect(brief(await scanFiles([dir], { minSeverity: "high" }))).toEqual([
      `${dir}/a.py:2:1 high py.eval-exec python`,
      `${dir}/b.py:1:1 critical py.base64-exec python`,
      `${dir}/b.py:1:1 high py.eval-exec python`,
      `${dir}/b.py:1:13 high py.decoded-payload-exec python`,
      `${dir}/c.py:1:1 critical py.base64-exec python`,
      `${dir}/c.py:1:1 high py.eval-exec python`,
      `${dir}/c.py:1:13 high py.decoded-payload-exec python`,
    ]);
    const limited = await scanFiles([dir], { minSeverity: "critical", maxFiles: 1 });
    expect(brief(limited)).toEqual([`${dir}/b.py:0:0 info scan.limit -`]);
    expect(limited[0]?.message).toBe(
      "scan stopped at 1 files; this file and the rest were not scanned. Review it by hand; the sandbox still applies when it runs.",
    );
    expect(criticalFindings(limited)).toEqual([]);
  });

  it("does not enter folders deeper than maxDepth", async () => {
    await put("a/b/deep.py", "exec(x)\n");
    await put("a/shallow.py", "exec(x)\n");
    expect(brief(await scanFiles([dir], { maxDepth: 1 }))).toEqual([
      `${dir}/a/b:0:0 info scan.limit -`,
      `${dir}/a/shallow.py:1:1 high py.eval-exec python`,
    ]);
  });

  it("reports unreadable files as info findings and keeps going", async () => {
    await put("a.py", "exec(x)\n");
    await put("b.py", "exec(x)\n");
    const fs = {
      ...nodeScanFs,
      readFile: async (path: string) => {
        if (path.endsWith("a.py")) throw new Error(`EACCES: permission denied, open '${path}'`);
        return nodeScanFs.readFile(path);
      },
    };
    const findings = await scanFiles([dir], { fs });
    expect(brief(findings)).toEqual([
      `${dir}/a.py:0:0 info scan.unreadable -`,
      `${dir}/b.py:1:1 high py.eval-exec python`,
    ]);
    expect(findings[0]?.message).toBe(
      `not scanned: cannot read: EACCES: permission denied, open '${dir}/a.py'.`,
    );
  });

  it("keeps relative inputs relative and accepts several inputs", async () => {
    const findings = await scanFiles([join(HOSTILE, "scripts", "run"), join(BENIGN, "scripts")]);
    expect(brief(findings)).toEqual([
      `${BENIGN}/scripts/report.py:16:15 medium py.process-spawn python`,
      `${HOSTILE}/scripts/run:3:1 high py.unsafe-deserialise python`,
    ]);
  });

  it("throws PATH_NOT_FOUND for an input that does not exist", async () => {
    const missing = join(dir, "missing.py");
    const error = await scanFiles([missing]).catch((caught: unknown) => caught);
    expect((error as SkillgateError).code).toBe("PATH_NOT_FOUND");
    expect((error as SkillgateError).message).toBe(
      `cannot scan ${missing}: ENOENT: no such file or directory, stat '${missing}'. Fix: pass an existing file, skill folder or skill root.`,
    );
  });
});
