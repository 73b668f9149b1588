// Built `skillgate call RunSkillScript` checks the scripts and starts the engine while the sandbox is built: a refused call still starts no script and answers as before.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { BENCH_SKILL, type BenchWorkspace, makeBenchWorkspace } from "../bench/workspace.js";
import { runProcess } from "../support/process.js";
import { tamper } from "../tools/helpers.js";

/** Leaves `out/touched` in the workspace when it runs (the sandbox's OUT is writable). */
const TOUCH_PY = `import os\nos.makedirs(os.environ["OUT"], exist_ok=True)\nopen(os.path.join(os.environ["OUT"], "touched"), "w").write("ran")\n`;
const MODIFIED_MJS = `import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.OUT + "/modified-ran", "ran");\n`;

let bw: BenchWorkspace | undefined;
afterEach(() => {
  bw?.cleanup();
  bw = undefined;
});

beforeAll(() => ensureBuilt(), 600_000);

/** A bench workspace whose skill also has touch.py, initialised (init copies the pack). */
async function workspace(): Promise<BenchWorkspace> {
  bw = makeBenchWorkspace();
  writeFileSync(join(bw.pack, "bench", "helpers", "scripts", "touch.py"), TOUCH_PY);
  await (await bw.open()).catalog();
  return bw;
}

const touched = (w: BenchWorkspace) => join(w.ws, "out", "touched");

/** The built CLI's answer (one-shot: the engine starts on use) next to the in-process one (engine started first). */
async function bothAnswers(w: BenchWorkspace, commands: string[][]) {
  const args = { commands };
  const cli = await runProcess(
    process.execPath,
    [
      BUILT_MAIN,
      "call",
      "RunSkillScript",
      JSON.stringify(args),
      "--workspace",
      w.ws,
      "--config",
      w.configFile,
      "--json",
    ],
    { cwd: w.dir, env: w.env },
  );
  const parsed = JSON.parse(cli.stdout) as { code: string | null; text: string };
  const inProcess = await callTool(await w.open(), "RunSkillScript", args);
  return { exit: cli.code, cli: { code: parsed.code, text: parsed.text }, inProcess };
}

describe("call RunSkillScript: checks that run while the first sandbox is built", () => {
  it("a modified second script refuses the call before the first script starts", async () => {
    const w = await workspace();
    tamper(w.scriptPath("helper.mjs"), MODIFIED_MJS);
    const ledger = readFileSync(workspacePaths(w.ws).ledger);
    const { exit, cli, inProcess } = await bothAnswers(w, [
      [BENCH_SKILL, "touch.py", ""],
      [BENCH_SKILL, "helper.mjs", ""],
    ]);
    expect(exit).toBe(1);
    expect(cli.code).toBe("SCRIPT_MODIFIED");
    expect(cli.text).toMatch(/^Command 2 invalid: /);
    expect(cli).toEqual({ code: inProcess.code, text: inProcess.text });
    expect(existsSync(touched(w))).toBe(false);
    expect(existsSync(join(w.ws, "out", "modified-ran"))).toBe(false);
    expect(readFileSync(workspacePaths(w.ws).ledger)).toEqual(ledger);
    // The control: the same first command alone runs, and leaves its mark.
    const alone = await bothAnswers(w, [[BENCH_SKILL, "touch.py", ""]]);
    expect(alone.exit).toBe(0);
    expect(existsSync(touched(w))).toBe(true);
  }, 120_000);

  it("a modified first script still wins over a later command's own error", async () => {
    const w = await workspace();
    tamper(w.scriptPath("touch.py"), `${TOUCH_PY}# changed\n`);
    const { cli, inProcess } = await bothAnswers(w, [
      [BENCH_SKILL, "touch.py", ""],
      ["no/such-skill", "x.py", ""],
    ]);
    expect(cli.code).toBe("SCRIPT_MODIFIED");
    expect(cli.text).toMatch(/^Command 1 invalid: /);
    expect(cli).toEqual({ code: inProcess.code, text: inProcess.text });
    expect(existsSync(touched(w))).toBe(false);
  }, 120_000);

  it("a ledger the engine refuses (another key) refuses the run, with the same answer", async () => {
    const w = await workspace();
    const key = join(w.home, "ledger.key");
    renameSync(key, `${key}.saved`);
    try {
      const { exit, cli, inProcess } = await bothAnswers(w, [[BENCH_SKILL, "touch.py", ""]]);
      expect(exit).toBe(1);
      expect(cli.code).toBe("LEDGER_KEY_MISMATCH");
      expect(cli).toEqual({ code: inProcess.code, text: inProcess.text });
      expect(existsSync(touched(w))).toBe(false);
    } finally {
      rmSync(key, { force: true });
      renameSync(`${key}.saved`, key);
    }
  }, 120_000);
});
