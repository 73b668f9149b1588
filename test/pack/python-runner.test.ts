// python-runner helpers run as real processes with the real uv: success, dependency install, and every failure message.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, findOnPath, freshDir, listDir, run, SKILLS } from "./support.js";

const SCRIPTS = join(SKILLS, "runners", "python-runner", "scripts");
const RUN_HELPER = join(SCRIPTS, "run_uv_script.py");
const UV = findOnPath("uv");
const UV_MISSING =
  "uv is not on PATH, so the real-uv test could not run: install it (`pip install uv`, as CI does)";
const PYTHON = run("python3", ["-c", "import sys; print(sys.executable)"]).stdout.trim();

afterAll(cleanupTempDirs);

/** Write a draft into a fresh workspace and run the helper on it with TMPDIR pointing at a fresh empty dir. */
function runDraft(source: string, env: NodeJS.ProcessEnv = process.env) {
  const workspace = freshDir("py-ws");
  const tmp = freshDir("py-tmp");
  writeFileSync(join(workspace, "draft.py"), source);
  const result = run(PYTHON, [RUN_HELPER, "draft.py"], { cwd: workspace, env: { ...env, TMPDIR: tmp } });
  return { ...result, tmp, workspace };
}

const block = (deps: string) => `# /// script\n# dependencies = ${deps}\n# ///\n`;

describe("run_uv_script.py with real uv", () => {
  it("runs a stdlib script, prints its output and deletes the temp file", () => {
    expect(UV, UV_MISSING).not.toBeNull();
    const result = runDraft(`${block("[]")}import json\nprint(json.dumps({"sum": 1 + 2}))\n`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe('{"sum": 3}\n');
    expect(result.status).toBe(0);
    expect(listDir(result.tmp).filter((name) => name.startsWith("uv_script_"))).toEqual([]);
  });

  it("installs a real dependency (six) declared by bare name", () => {
    expect(UV, UV_MISSING).not.toBeNull();
    // A fresh uv cache, so six really comes from PyPI.
    const cache = freshDir("py-uv-cache");
    const result = runDraft(`${block('["six"]')}import six\nprint("six", six.PY3)\n`, {
      ...process.env,
      UV_CACHE_DIR: cache,
    });
    expect(listDir(cache).length).toBeGreaterThan(0);
    expect(result.stdout).toBe("six True\n");
    expect(result.status).toBe(0);
  });

  it("shows uv's resolution failure in full and keeps the temp file", () => {
    expect(UV, UV_MISSING).not.toBeNull();
    const result = runDraft(`${block('["skillgate-no-such-package-zz9"]')}print("never")\n`);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("No solution found when resolving script dependencies");
    expect(result.stderr).toContain("skillgate-no-such-package-zz9 was not found in the package registry");
    const kept = /temp file kept: (.+)\n$/.exec(result.stderr)?.[1];
    expect(result.stderr).toMatch(
      /\nuv run failed with exit code \d+ \(uv's output above\)\ntemp file kept: .+\n$/,
    );
    expect(kept).toMatch(new RegExp(`^${result.tmp}/uv_script_\\d{14}_[0-9a-f]{8}\\.py$`));
    expect(readFileSync(kept!, "utf8")).toContain('print("never")');
  });

  it("shows the full traceback of a runtime error and keeps the temp file", () => {
    expect(UV, UV_MISSING).not.toBeNull();
    const source = `${block("[]")}def explode():\n    raise ValueError("boom")\n\nprint("before")\nexplode()\n`;
    const result = runDraft(source);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("before\n");
    expect(result.stderr).toMatch(
      /^Traceback \(most recent call last\):\n {2}File ".+uv_script_\d{14}_[0-9a-f]{8}\.py", line 8, in <module>\n/,
    );
    expect(result.stderr).toContain('line 5, in explode\n    raise ValueError("boom")\nValueError: boom\n');
    const kept = /temp file kept: (.+)\n$/.exec(result.stderr)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    expect(readFileSync(kept!, "utf8")).toBe(source);
  });

  it("refuses uv missing from PATH with the install link, before reading the draft", () => {
    const emptyPath = freshDir("py-nopath");
    const result = run(PYTHON, [RUN_HELPER, "does-not-matter.py"], {
      env: { PATH: emptyPath, HOME: process.env.HOME },
    });
    expect(result).toEqual({
      status: 1,
      stdout: "",
      stderr: "uv not found on PATH\ninstall it: https://docs.astral.sh/uv/getting-started/installation/\n",
    });
  });
});

describe("run_uv_script.py refuses a bad draft before writing any temp file", () => {
  const cases: Array<[string, string, string]> = [
    [
      "no PEP 723 block",
      "print(1)\n",
      "draft.py: no PEP 723 block: start the script with\n# /// script\n# dependencies = []\n# ///\n(list third-party packages by bare name in dependencies)\n",
    ],
    [
      "an unclosed block",
      "# /// script\n# dependencies = []\nprint(1)\n",
      "draft.py:1: the `# /// script` block is not closed: end it with a line `# ///` (every line in between must start with `#`)\n",
    ],
    [
      "two blocks",
      `${block("[]")}${block("[]")}`,
      "draft.py: 2 `# /// script` blocks (line 1, line 4): keep exactly one\n",
    ],
    [
      "no dependencies key",
      '# /// script\n# requires-python = ">=3.9"\n# ///\n',
      "draft.py:1: the PEP 723 block has no `dependencies`: add `# dependencies = []` for a standard-library script, or list the packages by bare name\n",
    ],
    [
      "dependencies not a list",
      block('"six"'),
      "draft.py:1: `dependencies` must be a list of package names like [\"requests\"], got 'six'\n",
    ],
    [
      "a non-string dependency",
      block("[1]"),
      'draft.py:1: `dependencies` must be a list of package names like ["requests"], got [1]\n',
    ],
    [
      "a syntax error",
      `${block("[]")}if True\n    pass\n`,
      "syntax error in draft.py line 4: expected ':'\n    if True\n           ^\nno temp file was written\n",
    ],
  ];

  it.each(cases)("%s", (_name, source, message) => {
    const result = runDraft(source);
    expect(result).toMatchObject({ status: 2, stdout: "", stderr: message });
    expect(listDir(result.tmp)).toEqual([]);
  });

  it("invalid TOML names the block line and tomllib's message", () => {
    const result = runDraft("# /// script\n# dependencies = [\n# ///\n");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^draft\.py:1: the PEP 723 block is not valid TOML: .+\n$/);
    expect(listDir(result.tmp)).toEqual([]);
  });

  it("a missing draft and a missing argument are usage errors", () => {
    const workspace = freshDir("py-ws");
    expect(run("python3", [RUN_HELPER, "nope.py"], { cwd: workspace })).toEqual({
      status: 2,
      stdout: "",
      stderr: `draft not found: nope.py (resolved to ${workspace}/nope.py): write the script there first\n`,
    });
    expect(run("python3", [RUN_HELPER], { cwd: workspace })).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "usage: run_uv_script.py DRAFT.py  (the path of the script you wrote, relative to the workspace)\n",
    });
  });
});

describe("run_uv_script.py environment of `uv run`", () => {
  /** A stand-in uv on PATH that reports its argv and TLS variables, to see exactly what the helper passes. */
  function reportingUv(version: string): string {
    const bin = freshDir("py-fakeuv");
    writeFileSync(
      join(bin, "uv"),
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "uv ${version}"; exit 0; fi\necho "argv=$1 $(basename "$2") SYSTEM_CERTS=$UV_SYSTEM_CERTS NATIVE_TLS=$UV_NATIVE_TLS"\n`,
      { mode: 0o755 },
    );
    return bin;
  }
  const cases: Array<[string, string, NodeJS.ProcessEnv, string]> = [
    [
      "uv >= 0.11 without a CA bundle gets UV_SYSTEM_CERTS",
      "0.13.9 (x86_64)",
      {},
      "SYSTEM_CERTS=1 NATIVE_TLS=",
    ],
    ["uv < 0.11 without a CA bundle gets UV_NATIVE_TLS", "0.10.2", {}, "SYSTEM_CERTS= NATIVE_TLS=1"],
    [
      "a configured SSL_CERT_FILE is left alone",
      "0.13.9",
      { SSL_CERT_FILE: "/etc/ssl/certs/ca-certificates.crt" },
      "SYSTEM_CERTS= NATIVE_TLS=",
    ],
    [
      "an explicit UV_SYSTEM_CERTS=0 is kept",
      "0.13.9",
      { UV_SYSTEM_CERTS: "0" },
      "SYSTEM_CERTS=0 NATIVE_TLS=",
    ],
  ];

  it.each(cases)("%s", (_name, version, extra, expected) => {
    const env: NodeJS.ProcessEnv = {
      PATH: `${reportingUv(version)}:/usr/bin:/bin`,
      HOME: process.env.HOME,
      ...extra,
    };
    const result = runDraft(`${block("[]")}print(1)\n`, env);
    expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(result.stdout).toMatch(new RegExp(`^argv=run uv_script_\\d{14}_[0-9a-f]{8}\\.py ${expected}\\n$`));
  });
});

describe("get_temp_path.py", () => {
  it("prints a fresh uv_script_<timestamp>_<random>.py path in the system temp dir, and the dir with --dir", () => {
    const tmp = freshDir("py-tmp");
    const env = { ...process.env, TMPDIR: tmp };
    const first = run("python3", [join(SCRIPTS, "get_temp_path.py")], { env });
    const second = run("python3", [join(SCRIPTS, "get_temp_path.py")], { env });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${tmp}/uv_script_\\d{14}_[0-9a-f]{8}\\.py\\n$`));
    expect(second.stdout).not.toBe(first.stdout);
    expect(run("python3", [join(SCRIPTS, "get_temp_path.py"), "--dir"], { env }).stdout).toBe(`${tmp}\n`);
    expect(listDir(tmp)).toEqual([]);
  });

  it("exposes get_temp_dir() and get_temp_file_path() to importers", () => {
    const code = "import get_temp_path as g; print(g.get_temp_dir()); print(g.get_temp_file_path())";
    const result = run("python3", ["-c", code], { cwd: SCRIPTS, env: { ...process.env, TMPDIR: "/tmp" } });
    expect(result.stdout).toMatch(/^\/tmp\n\/tmp\/uv_script_\d{14}_[0-9a-f]{8}\.py\n$/);
  });
});
