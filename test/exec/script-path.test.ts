// checkScriptPath: lexical refusals, symlink/hardlink escapes, non-regular files, and the returned real path.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkScriptPath } from "../../runtime/exec/index.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let root: string;
let skillDir: string;
let outside: string;

beforeAll(() => {
  temp = tempRoot("skillgate-scriptpath-", { realpath: true });
  root = temp.dir;
  skillDir = join(root, "skill");
  mkdirSync(join(skillDir, "scripts", "folder"), { recursive: true });
  writeFileSync(join(skillDir, "scripts", "ok.py"), "print(1)\n");
  writeFileSync(join(skillDir, "scripts", "real.py"), "print(2)\n");
  symlinkSync("real.py", join(skillDir, "scripts", "inner-link.py"));
  outside = join(root, "outside.py");
  writeFileSync(outside, "secret\n");
  symlinkSync(outside, join(skillDir, "scripts", "escape.py"));
  symlinkSync("..", join(skillDir, "scripts", "up"));
  linkSync(outside, join(skillDir, "scripts", "hard.py"));
});
afterAll(() => temp.cleanup());

describe("checkScriptPath", () => {
  it("returns the real path of a bare filename, following links that stay inside scripts/", async () => {
    expect(await checkScriptPath(skillDir, "ok.py")).toBe(join(skillDir, "scripts", "ok.py"));
    expect(await checkScriptPath(skillDir, "inner-link.py")).toBe(join(skillDir, "scripts", "real.py"));
  });

  const lexical: Array<[string, string]> = [
    ["", "it is empty"],
    ["/etc/passwd", "it is an absolute path"],
    ["../../etc/passwd", "it contains '..'"],
    ["..", "it contains '..'"],
    ["folder/x.py", "it contains '/'"],
    ["a\\b.py", "it contains a backslash"],
    ["a\nb.py", "it contains control characters"],
    ["a\u0000.py", "it contains control characters"],
    ["a\u001b[31m.py", "it contains control characters"],
    ["x\u0085.py", "it contains control characters"],
  ];
  it.each(lexical)("refuses %j: %s", async (name, problem) => {
    await expect(checkScriptPath(skillDir, name)).rejects.toMatchObject({
      code: "SCRIPT_PATH_INVALID",
      message: `script name ${JSON.stringify(name)} for skill folder ${skillDir} is refused: ${problem}; fix: pass a bare filename listed under the skill's scripts/ folder`,
    });
  });

  it("refuses a symlink leading out of scripts/", async () => {
    await expect(checkScriptPath(skillDir, "escape.py")).rejects.toMatchObject({
      code: "SCRIPT_PATH_INVALID",
      message: `script "escape.py" resolves to ${outside}, outside ${join(skillDir, "scripts")}; fix: scripts must be real files inside the skill's scripts/ folder, not links leading out of it`,
    });
    await expect(checkScriptPath(skillDir, "up")).rejects.toMatchObject({ code: "SCRIPT_PATH_INVALID" });
  });

  it("refuses a hard link (its content may come from outside the skill)", async () => {
    await expect(checkScriptPath(skillDir, "hard.py")).rejects.toMatchObject({
      code: "SCRIPT_PATH_INVALID",
      message: `script "hard.py" at ${join(skillDir, "scripts", "hard.py")} has 2 hard links, so its content may be a file from outside the skill; fix: replace it with a plain copy`,
    });
  });

  it("refuses a folder and reports a missing file", async () => {
    await expect(checkScriptPath(skillDir, "folder")).rejects.toMatchObject({
      code: "SCRIPT_PATH_INVALID",
      message: `script "folder" at ${join(skillDir, "scripts", "folder")} is not a regular file; fix: pass a script file, not a folder or device`,
    });
    await expect(checkScriptPath(skillDir, "missing.py")).rejects.toMatchObject({
      code: "SCRIPT_NOT_FOUND",
      message: `script "missing.py" not found at ${join(skillDir, "scripts", "missing.py")}; fix: use one of the files listed under the skill's Script Path`,
    });
  });
});
