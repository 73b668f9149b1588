// resolveRunner: skill mapping → pack mapping → built-ins, bundled tsx/bun, pyenv shims, and every error message.
import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable, resolveRunner } from "../../runtime/exec/index.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let root: string;
let skillDir: string;
let skillFile: string;
let packFile: string;

function setup(skillMapping: string | null, packMapping: string | null): void {
  rmSync(skillFile, { force: true });
  rmSync(packFile, { force: true });
  if (skillMapping !== null) writeFileSync(skillFile, skillMapping);
  if (packMapping !== null) writeFileSync(packFile, packMapping);
}

function resolve(script: string, path?: string) {
  return resolveRunner({ scriptPath: join(skillDir, "scripts", script), skillDir, skillsRoot: root, path });
}

/** The engine's own JSON.parse message (its wording differs between Node versions). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

beforeAll(() => {
  temp = tempRoot("skillgate-runner-");
  root = temp.dir;
  skillDir = join(root, "group", "skill");
  mkdirSync(join(skillDir, "scripts"), { recursive: true });
  skillFile = join(skillDir, "scripts", "script_runner.json");
  packFile = join(root, "script_runner.json");
});
afterAll(() => temp.cleanup());

describe("resolveRunner", () => {
  it("uses the built-ins for .py, .sh and .bash, resolving the pyenv shim to the real interpreter", async () => {
    setup(null, null);
    const python = await resolve("a.py");
    expect(python.source).toBe("built-in");
    expect(python.runner).not.toContain("/shims/");
    expect(python.runner).toMatch(/python3/);
    expect((await resolve("a.sh")).runner).toBe(realpathSync(findExecutable("bash") as string));
    expect((await resolve("a.bash")).runner).toBe(realpathSync(findExecutable("bash") as string));
  });

  it("prefers the skill's file mapping over the pack's extension mapping", async () => {
    setup('{"tool.ts": "bun"}', '{".ts": "tsx", ".js": "node"}');
    const viaSkill = await resolve("tool.ts");
    expect(viaSkill.source).toBe(skillFile);
    expect(viaSkill.runner).toMatch(/bun/);
    const viaPack = await resolve("other.ts");
    expect(viaPack.source).toBe(packFile);
    expect(viaPack.runner).toMatch(/tsx/);
    expect((await resolve("x.js")).runner).toBe(realpathSync(findExecutable("node") as string));
  });

  it("finds tsx and bun in skillgate's own node_modules when they are not on PATH", async () => {
    setup('{"a.ts": "tsx", "b.ts": "bun"}', null);
    expect((await resolve("a.ts", "/usr/bin:/bin")).runner).toMatch(/node_modules\/tsx\//);
    expect((await resolve("b.ts", "/usr/bin:/bin")).runner).toMatch(/node_modules\/bun\//);
  });

  const errors: Array<[string, string | null, string | null, string, () => string]> = [
    [
      "invalid JSON in the skill file",
      "{nope",
      null,
      "a.ts",
      () =>
        `runner for script 'a.ts': ${skillFile} is not valid JSON (${jsonError("{nope")}); fix: write {"a.ts": "<runner>"}`,
    ],
    [
      "skill file not an object",
      "[1]",
      null,
      "a.ts",
      () =>
        `runner for script 'a.ts': ${skillFile} must be a JSON object mapping names to runners, got an array; fix: write {"a.ts": "<runner>"}`,
    ],
    [
      "pack file not an object",
      null,
      '"tsx"',
      "a.ts",
      () =>
        `runner for script 'a.ts': ${packFile} must be a JSON object mapping names to runners, got a string; fix: write {".ts": "<runner>"}`,
    ],
    [
      "empty runner",
      '{"a.ts": ""}',
      null,
      "a.ts",
      () =>
        `runner for script 'a.ts': ${skillFile} maps "a.ts" to an empty runner (""); fix: set "a.ts" to one executable name, e.g. "tsx" or "python3"`,
    ],
    [
      "runner not a string",
      null,
      '{".ts": 3}',
      "a.ts",
      () =>
        `runner for script 'a.ts': ${packFile} maps ".ts" to an empty runner (3); fix: set ".ts" to one executable name, e.g. "tsx" or "python3"`,
    ],
    [
      "runner with arguments",
      '{"a.ts": "node --import tsx"}',
      null,
      "a.ts",
      () =>
        `runner for script 'a.ts': ${skillFile} maps "a.ts" to "node --import tsx", which has arguments or spaces; fix: set "a.ts" to one executable name without arguments (put options in the script itself)`,
    ],
    [
      "no mapping and no built-in",
      "{}",
      '{".js": "node"}',
      "a.rb",
      () =>
        `no runner for script 'a.rb': extension '.rb' is mapped neither in ${skillFile} nor in ${packFile}, and built-ins cover only .py, .sh, .bash; fix: add {"a.rb": "<runner>"} to ${skillFile}`,
    ],
    [
      "no extension",
      null,
      null,
      "Makefile",
      () =>
        `no runner for script 'Makefile': extension '(none)' is mapped neither in ${skillFile} nor in ${packFile}, and built-ins cover only .py, .sh, .bash; fix: add {"Makefile": "<runner>"} to ${skillFile}`,
    ],
    [
      "executable not found",
      '{"a.ts": "no-such-runner-xyz"}',
      null,
      "a.ts",
      () =>
        `runner 'no-such-runner-xyz' for script 'a.ts' (from ${skillFile}) was not found on PATH; fix: install 'no-such-runner-xyz' or map 'a.ts' to another runner in ${skillFile}`,
    ],
    [
      "built-in not found",
      null,
      null,
      "a.py",
      () =>
        `runner 'python3' for script 'a.py' (from the built-in runners) was not found on PATH; fix: install 'python3' or map 'a.py' to another runner in ${skillFile}`,
    ],
  ];

  it.each(errors)("error: %s", async (_name, skillMapping, packMapping, script, message) => {
    setup(skillMapping, packMapping);
    const path = script === "a.py" ? "/nonexistent" : undefined;
    await expect(resolve(script, path)).rejects.toThrow(message());
  });

  it("uses the right error codes", async () => {
    setup("{nope", null);
    await expect(resolve("a.ts")).rejects.toMatchObject({ code: "RUNNER_CONFIG_INVALID" });
    setup('{"a.ts": "no-such-runner-xyz"}', null);
    await expect(resolve("a.ts")).rejects.toMatchObject({ code: "RUNNER_NOT_FOUND" });
  });
});
