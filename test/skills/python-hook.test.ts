// UCAgent Python stage hooks (runtime/skills/python-hook.ts): a non-empty scripts/__init__.py without hooks.ts loads
// with a warning saying it is not run; status lists those skills.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  PYTHON_HOOK_NOT_RUN,
  pythonHookDiagnostic,
  pythonHookNotes,
} from "../../runtime/skills/python-hook.js";
import { scanSkillRoot } from "../../runtime/skills/scan.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { skill, writeTree } from "./helpers.js";

const MESSAGE =
  "scripts/__init__.py is a UCAgent (Python) stage hook (setup_vstage); its Python hook is not run here — skillgate runs only hooks.ts beside SKILL.md (export setupStage(stage)); the skill still loads, port the hook to hooks.ts if its stage needs that guidance";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

const entriesOf = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []);

describe("pythonHookDiagnostic", () => {
  it("warns for a non-empty __init__.py (a file or a link to one) when there is no hooks.ts", () => {
    temp = tempRoot("skillgate-python-hook-");
    const dir = writeTree(
      temp.dir,
      skill("tool", { "scripts/__init__.py": "def setup_vstage(stage): pass\n" }),
    );
    const skillDir = path.join(dir, "tool");
    expect(pythonHookDiagnostic(skillDir, entriesOf(path.join(skillDir, "scripts")), false)).toEqual({
      path: path.join(skillDir, "scripts", "__init__.py"),
      code: PYTHON_HOOK_NOT_RUN,
      message: MESSAGE,
      severity: "warning",
    });
    expect(pythonHookDiagnostic(skillDir, entriesOf(path.join(skillDir, "scripts")), true)).toBeNull();
    writeTree(dir, { "real.py": "x = 1\n", ...skill("linked") });
    fs.mkdirSync(path.join(dir, "linked/scripts"));
    fs.symlinkSync(path.join(dir, "real.py"), path.join(dir, "linked/scripts/__init__.py"));
    const linked = path.join(dir, "linked");
    expect(pythonHookDiagnostic(linked, entriesOf(path.join(linked, "scripts")), false)?.code).toBe(
      PYTHON_HOOK_NOT_RUN,
    );
  });

  it("says nothing for an empty __init__.py (UCAgent skips it), a folder of that name or a dangling link", () => {
    temp = tempRoot("skillgate-python-hook-");
    const dir = writeTree(temp.dir, {
      ...skill("empty", { "scripts/__init__.py": "" }),
      ...skill("folder", { "scripts/__init__.py/x": "y" }),
      ...skill("dangling", { "scripts/keep": "" }),
    });
    fs.symlinkSync(path.join(dir, "gone.py"), path.join(dir, "dangling/scripts/__init__.py"));
    for (const id of ["empty", "folder", "dangling"]) {
      const skillDir = path.join(dir, id);
      expect(pythonHookDiagnostic(skillDir, entriesOf(path.join(skillDir, "scripts")), false)).toBeNull();
    }
  });
});

describe("pythonHookNotes", () => {
  it("lists each scanned skill whose hook is not run, as id: message, in catalog order", () => {
    temp = tempRoot("skillgate-python-hook-");
    const dir = writeTree(temp.dir, {
      ...skill("b/hooked", { "scripts/__init__.py": "pass\n" }),
      ...skill("a/ported", { "scripts/__init__.py": "pass\n", "hooks.ts": "export {};\n" }),
      ...skill("a/hooked", { "scripts/__init__.py": "pass\n" }),
      ...skill("plain"),
    });
    const snapshot = scanSkillRoot(dir);
    expect(snapshot.skills.map((record) => record.id)).toEqual(["a/hooked", "a/ported", "b/hooked", "plain"]);
    expect(pythonHookNotes(snapshot)).toEqual([`a/hooked: ${MESSAGE}`, `b/hooked: ${MESSAGE}`]);
    expect(pythonHookNotes(null)).toEqual([]);
  });
});
