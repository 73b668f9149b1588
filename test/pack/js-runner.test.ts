// js-runner helpers run as real processes with the real bun from node_modules: JS, TS, auto-install, failures.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BUN, cleanupTempDirs, freshDir, listDir, run, SKILLS } from "./support.js";

const SCRIPTS = join(SKILLS, "runners", "js-runner", "scripts");
const RUN_HELPER = join(SCRIPTS, "run_bun_script.mjs");
const BUN_MISSING = `bun is not at ${BUN}: run \`npm ci\` (skillgate depends on the bun npm package)`;
const INSTALL_HELP =
  "install it with `npm install bun` (skillgate depends on the `bun` npm package: after `npm ci` it is " +
  "node_modules/.bin/bun) or see https://bun.sh/docs/installation; then put it on PATH or set SKILLGATE_BUN to its path\n";

afterAll(cleanupTempDirs);

/** Write a draft into a fresh workspace and run the helper with node, TMPDIR pointing at a fresh empty dir. */
function runDraft(
  name: string,
  source: string,
  env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_BUN: BUN },
) {
  const workspace = freshDir("js-ws");
  const tmp = freshDir("js-tmp");
  writeFileSync(join(workspace, name), source);
  const result = run(process.execPath, [RUN_HELPER, name], { cwd: workspace, env: { ...env, TMPDIR: tmp } });
  return {
    ...result,
    tmp,
    workspace,
    runnerFiles: () => listDir(tmp).filter((f) => f.startsWith("js-runner-")),
  };
}

describe("run_bun_script.mjs with the real bun", () => {
  it("runs a JS script, prints its output and deletes the temp file", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const result = runDraft("hello.js", 'console.log("sum", [1, 2, 3].reduce((a, b) => a + b, 0));\n');
    expect(result).toMatchObject({ status: 0, stdout: "sum 6\n", stderr: "" });
    expect(result.runnerFiles()).toEqual([]);
  });

  it("runs TypeScript directly, finding bun on PATH when SKILLGATE_BUN is unset", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(BUN)}:${process.env.PATH}` };
    delete env.SKILLGATE_BUN;
    const source =
      "interface Item { sku: string; qty: number }\nconst items: Item[] = [{ sku: 'A', qty: 2 }];\nconsole.log(\"ts\", items[0]!.qty * 21);\n";
    const result = runDraft("typed.ts", source, env);
    expect(result).toMatchObject({ status: 0, stdout: "ts 42\n", stderr: "" });
    expect(result.runnerFiles()).toEqual([]);
  });

  it("auto-installs a bare import from the npm registry (is-number)", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const source = 'import isNumber from "is-number";\nconsole.log(isNumber(5), isNumber("five"));\n';
    // A fresh install cache, so the package really comes from the registry.
    const cache = freshDir("js-bun-cache");
    const result = runDraft("auto.mjs", source, {
      ...process.env,
      SKILLGATE_BUN: BUN,
      BUN_INSTALL_CACHE_DIR: cache,
    });
    expect(result.stdout).toBe("true false\n");
    expect(listDir(cache).length).toBeGreaterThan(0);
    expect(result.status).toBe(0);
  });

  it("forwards bun's error output, keeps the temp file and prints its path on a runtime error", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const source =
      'console.log("before");\nfunction explode() {\n  throw new Error("kaboom");\n}\nexplode();\n';
    const result = runDraft("boom.js", source);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("before\n");
    expect(result.stderr).toContain("error: kaboom");
    expect(result.stderr).toMatch(/at explode \(.+js-runner-\d{13}-[0-9a-f]{8}\.js:3:\d+\)/);
    expect(result.stderr).toMatch(
      /\nbun run failed with exit code 1 \(bun's output above\)\ntemp file kept: (.+)\n$/,
    );
    const kept = /temp file kept: (.+)\n$/.exec(result.stderr)?.[1];
    expect(kept).toMatch(new RegExp(`^${result.tmp}/js-runner-\\d{13}-[0-9a-f]{8}\\.js$`));
    expect(readFileSync(kept!, "utf8")).toBe(source);
  });

  it("reports an import that does not exist in the registry and keeps the temp file", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const result = runDraft(
      "missing.mjs",
      'import x from "skillgate-no-such-package-zz9";\nconsole.log(x);\n',
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Cannot find package 'skillgate-no-such-package-zz9'");
    expect(result.stderr).toMatch(/temp file kept: .+js-runner-\d{13}-[0-9a-f]{8}\.mjs\n$/);
    expect(result.runnerFiles()).toHaveLength(1);
  });

  it("catches a syntax error before writing any temp file", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const result = runDraft("broken.ts", "const total: number = (1 + 2;\nconsole.log(total);\n");
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('error: Expected ")" but found ";"');
    expect(result.stderr).toContain(`at ${result.workspace}/broken.ts:1:`);
    expect(result.stderr).toMatch(
      /\nsyntax error in broken\.ts \(bun's message above\)\nno temp file was written\n$/,
    );
    expect(result.runnerFiles()).toEqual([]);
  });
});

describe("run_bun_script.mjs failure messages", () => {
  const cases: Array<[string, string[], NodeJS.ProcessEnv, number, string]> = [
    [
      "bun missing (no SKILLGATE_BUN, no bun on PATH)",
      ["x.js"],
      {},
      1,
      `bun not found: SKILLGATE_BUN is not set and there is no bun on PATH\n${INSTALL_HELP}`,
    ],
    [
      "SKILLGATE_BUN not executable",
      ["x.js"],
      { SKILLGATE_BUN: "/nonexistent/bun" },
      1,
      `bun not found: SKILLGATE_BUN=/nonexistent/bun is not an executable file\n${INSTALL_HELP}`,
    ],
    [
      "no argument",
      [],
      { SKILLGATE_BUN: BUN },
      2,
      "usage: run_bun_script.mjs DRAFT.js|DRAFT.ts  (the path of the script you wrote, relative to the workspace)\n",
    ],
    [
      "a wrong extension",
      ["notes.txt"],
      { SKILLGATE_BUN: BUN },
      2,
      'draft notes.txt has extension "txt": name it with one of .js, .mjs, .cjs, .ts, .mts, .cts, .jsx, .tsx\n',
    ],
  ];

  it.each(cases)("%s", (_name, args, extraEnv, status, stderr) => {
    const emptyPath = freshDir("js-nopath");
    const result = run(process.execPath, [RUN_HELPER, ...args], { env: { PATH: emptyPath, ...extraEnv } });
    expect(result).toEqual({ status, stdout: "", stderr });
  });

  it("a missing draft is a usage error naming the resolved path", () => {
    const workspace = freshDir("js-ws");
    const result = run(process.execPath, [RUN_HELPER, "nope.ts"], {
      cwd: workspace,
      env: { ...process.env, SKILLGATE_BUN: BUN },
    });
    expect(result).toEqual({
      status: 2,
      stdout: "",
      stderr: `draft not found: nope.ts (resolved to ${workspace}/nope.ts): write the script there first\n`,
    });
  });
});

describe("get_temp_path.mjs", () => {
  const pattern = (tmp: string, ext: string) =>
    new RegExp(`^${tmp}/js-runner-\\d{13}-[0-9a-f]{8}\\.${ext}\\n$`);

  it("prints a fresh path under node and under bun, and the dir with --dir", () => {
    expect(existsSync(BUN), BUN_MISSING).toBe(true);
    const tmp = freshDir("js-tmp");
    const env = { ...process.env, TMPDIR: tmp };
    const helper = join(SCRIPTS, "get_temp_path.mjs");
    const underNode = run(process.execPath, [helper, "ts"], { env });
    const underBun = run(BUN, [helper], { env });
    expect(underNode.stdout).toMatch(pattern(tmp, "ts"));
    expect(underBun.stdout).toMatch(pattern(tmp, "js"));
    expect(run(process.execPath, [helper, "--dir"], { env }).stdout).toBe(`${tmp}\n`);
    expect(run(process.execPath, [helper, "py"], { env })).toEqual({
      status: 2,
      stdout: "",
      stderr: 'unsupported extension "py": use one of js, mjs, cjs, ts, mts, cts, jsx, tsx\n',
    });
    expect(listDir(tmp)).toEqual([]);
  });
});
