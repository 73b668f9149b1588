// The pack in both hosts: the Python stage hook UCAgent runs, no build artefacts, and every script named in the docs exists.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import { GUIDANCE_LINE } from "../../skills/review/static-bug-analysis/hooks.js";
import { tempDir, writeTree } from "../skills/helpers.js";
import { FIXTURE_PACK, makeFixture } from "../tools/helpers.js";
import { REPO, SKILLS } from "./support.js";

const INIT_PY = join(SKILLS, "review", "static-bug-analysis", "scripts", "__init__.py");

/**
 * A stand-in for UCAgent's stage: `task()` returns a copy of its task list, and `add_hook(name, fn)`
 * replaces the method with one calling `fn(original, *args, **kwargs)`, as UCAgent's VerifyStage.on_init
 * does. The hook file is imported the way UCAgent imports it (spec_from_file_location + exec_module).
 */
const STAND_IN = `
import importlib.util, json, sys

class Stage:
    def __init__(self, tasks):
        self.task_list = tasks
    def task(self):
        return list(self.task_list)
    def add_hook(self, method_name, hook_func):
        if not hasattr(self, method_name):
            raise AttributeError(method_name)
        original = getattr(self, method_name)
        def hooked(*args, **kwargs):
            return hook_func(original, *args, **kwargs)
        setattr(self, method_name, hooked)

spec = importlib.util.spec_from_file_location("ucskill_review_static_bug_analysis", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
stage = Stage(["Read the target.", "Record each bug."])
module.setup_vstage(stage)
first = stage.task()
second = stage.task()
other = Stage(["Only task."])
module.setup_vstage(other)
json.dump({"first": first, "second": second, "other": other.task(), "kept": stage.task_list,
           "exports": module.__all__}, sys.stdout)
`;

describe("review/static-bug-analysis in a Python UCAgent host", () => {
  it("setup_vstage adds hooks.ts's guidance line through stage.add_hook('task'), keeping the tasks", () => {
    const output = execFileSync("python3", ["-c", STAND_IN, INIT_PY], { encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({
      first: ["Read the target.", "Record each bug.", GUIDANCE_LINE],
      second: ["Read the target.", "Record each bug.", GUIDANCE_LINE],
      other: ["Only task.", GUIDANCE_LINE],
      kept: ["Read the target.", "Record each bug."],
      exports: ["setup_vstage"],
    });
  });

  it("returns a non-list task value unchanged and imports nothing outside the standard library", () => {
    const script = `
import importlib.util, sys
spec = importlib.util.spec_from_file_location("m", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(repr(module.add_guidance(lambda: None)), repr(module.add_guidance(lambda x: x, "text")))
`;
    expect(execFileSync("python3", ["-c", script, INIT_PY], { encoding: "utf8" }).trim()).toBe("None 'text'");
    expect(readFileSync(INIT_PY, "utf8")).not.toMatch(/^\s*(import|from)\s/m);
  });

  it("is not listed as a script, and the skill with both hooks gets no Python-hook warning", () => {
    const skill = scanSkillRoot(SKILLS).skills.find((s) => s.id === "review/static-bug-analysis")!;
    expect(skill.scripts).toEqual(["list_bugs.ts", "record_bug.ts"]);
    expect(skill.hasHooks).toBe(true);
    expect(skill.diagnostics).toEqual([]);
  });
});

describe("a skill with only a Python hook (e.g. UCAgent's own pack as an extra path)", () => {
  const MESSAGE =
    "scripts/__init__.py is a UCAgent (Python) stage hook (setup_vstage); its Python hook is not run here — skillgate runs only hooks.ts beside SKILL.md (export setupStage(stage)); the skill still loads, port the hook to hooks.ts if its stage needs that guidance";
  const skillMd = (name: string) => `---\nname: ${name}\ndescription: A UCAgent skill.\n---\n# Body\n`;

  it("warns in the catalog when scripts/__init__.py is non-empty and hooks.ts is absent", () => {
    const root = writeTree(tempDir(), {
      "py-hook/SKILL.md": skillMd("py-hook"),
      "py-hook/scripts/__init__.py": "def setup_vstage(stage):\n    pass\n",
      "py-hook/scripts/run.py": "print(1)\n",
      "empty-init/SKILL.md": skillMd("empty-init"),
      "empty-init/scripts/__init__.py": "",
      "both/SKILL.md": skillMd("both"),
      "both/hooks.ts": "export function setupStage() {}\n",
      "both/scripts/__init__.py": "def setup_vstage(stage):\n    pass\n",
    });
    const snapshot = scanSkillRoot(root);
    const byId = Object.fromEntries(snapshot.skills.map((s) => [s.id, s]));
    expect(byId["py-hook"]!.scripts).toEqual(["run.py"]);
    expect(byId["py-hook"]!.diagnostics).toEqual([
      {
        path: join(root, "py-hook", "scripts", "__init__.py"),
        code: "PYTHON_HOOK_NOT_RUN",
        message: MESSAGE,
        severity: "warning",
      },
    ]);
    expect(byId["empty-init"]!.diagnostics).toEqual([]);
    expect(byId.both!.diagnostics).toEqual([]);
  });

  it("says so in `skillgate catalog`", () => {
    const root = writeTree(tempDir(), {
      "py-hook/SKILL.md": skillMd("py-hook"),
      "py-hook/scripts/__init__.py": "def setup_vstage(stage):\n    pass\n",
    });
    const run = spawnSync(
      join(REPO, "node_modules", ".bin", "tsx"),
      ["runtime/cli/main.ts", "catalog", root],
      {
        cwd: REPO,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")).toContain(`  warning: ${MESSAGE}`);
  });
});

/** Cache and compiled files a pack must never ship (they are host- and version-specific). */
const ARTEFACT =
  /(^|\/)(__pycache__|node_modules|\.pytest_cache|\.mypy_cache|dist)\/|\.(pyc|pyo|pyd|class|o|so|dylib|dll|exe|tsbuildinfo)$|(^|\/)\.DS_Store$/;

describe("no build artefacts in the pack", () => {
  it("tracks no cache or compiled file under skills/ (git ls-files)", () => {
    const tracked = execFileSync("git", ["ls-files", "-z", "--", "skills"], { cwd: REPO, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    expect(tracked.length).toBeGreaterThan(10);
    expect(tracked.filter((file) => ARTEFACT.test(file))).toEqual([]);
  });

  it("the pattern catches the artefacts it is meant to catch", () => {
    const caught = [
      "skills/runners/python-runner/scripts/__pycache__/get_temp_path.cpython-311.pyc",
      "skills/a/scripts/x.pyc",
      "skills/a/node_modules/left-pad/index.js",
      "skills/a/.DS_Store",
      "skills/a/dist/x.js",
    ];
    expect(caught.filter((file) => !ARTEFACT.test(file))).toEqual([]);
    expect(ARTEFACT.test("skills/runners/python-runner/scripts/get_temp_path.py")).toBe(false);
  });

  it("git ignores __pycache__ and .pyc files", () => {
    const ignored = spawnSync(
      "git",
      [
        "check-ignore",
        "-q",
        "skills/runners/python-runner/scripts/__pycache__/get_temp_path.cpython-311.pyc",
      ],
      { cwd: REPO },
    );
    expect(ignored.status).toBe(0);
  });
});

/** Every `name.ts|mjs|js|py|sh` token in the texts an agent or a newcomer reads. */
function scriptMentions(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])([A-Za-z0-9_-]+\.(?:ts|mjs|js|py|sh))(?![\w-])/g)].map(
    (m) => m[1] as string,
  );
}

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(full, keep);
    return keep(full) ? [full] : [];
  });
}

describe("every script named in the docs and tool texts exists", () => {
  const tracked = new Set(
    execFileSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" })
      .split("\0")
      .filter(Boolean)
      .map((file) => basename(file)),
  );
  const packScripts = new Set(
    filesUnder(SKILLS, (file) => file.includes("/scripts/")).map((file) => basename(file)),
  );
  // Names that are not script references, each with why.
  const PLACEHOLDERS = new Map([
    ["Node.js", "the runtime's name"],
    ["fileops.py", "UCAgent's source file that the file tools follow (docs/tools.md), not a pack script"],
    ["draft.ts", "the agent's own draft file the runners execute"],
    ["draft.py", "the agent's own draft file the runners execute"],
    ["tool.ts", "an example key of a skill's script_runner.json"],
    ["file.ts", "an example key of a skill's script_runner.json"],
    ["helper.ts", "the benchmark's generated helper (docs/performance.md)"],
    ["helper.mjs", "the benchmark's generated helper (docs/performance.md)"],
  ]);
  const sources: Array<[string, string]> = [
    ["README.md", readFileSync(join(REPO, "README.md"), "utf8")],
    ...filesUnder(join(REPO, "docs"), (file) => file.endsWith(".md")).map((file): [string, string] => [
      file.slice(REPO.length + 1),
      readFileSync(file, "utf8"),
    ]),
    ...filesUnder(SKILLS, (file) => basename(file) === "SKILL.md").map((file): [string, string] => [
      file.slice(REPO.length + 1),
      readFileSync(file, "utf8"),
    ]),
    ...filesUnder(join(REPO, "guide_doc"), (file) => file.endsWith(".md")).map((file): [string, string] => [
      file.slice(REPO.length + 1),
      readFileSync(file, "utf8"),
    ]),
    // Tool descriptions, tool errors and --help texts.
    ...filesUnder(join(REPO, "runtime", "tools"), (file) => file.endsWith(".ts")).map(
      (file): [string, string] => [file.slice(REPO.length + 1), readFileSync(file, "utf8")],
    ),
    ...filesUnder(join(REPO, "runtime", "cli"), (file) => file.endsWith(".ts")).map(
      (file): [string, string] => [file.slice(REPO.length + 1), readFileSync(file, "utf8")],
    ),
  ];

  it("finds the texts it checks", () => {
    expect(sources.length).toBeGreaterThan(10);
    expect(existsSync(join(REPO, "guide_doc"))).toBe(true);
  });

  it("names no script that is not in the repository (pack scripts for the skill texts)", () => {
    const missing: string[] = [];
    for (const [where, text] of sources) {
      for (const name of scriptMentions(text)) {
        if (PLACEHOLDERS.has(name)) continue;
        const known = where.startsWith("skills/")
          ? packScripts.has(name) || tracked.has(name)
          : tracked.has(name);
        if (!known) missing.push(`${where}: ${name}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it("would catch find_bugs.ts", () => {
    expect(scriptMentions('run [["review/static-bug-analysis", "find_bugs.ts", ""]]')).toEqual([
      "find_bugs.ts",
    ]);
    expect(tracked.has("find_bugs.ts")).toBe(false);
  });
});

describe("`skillgate status` names a skill whose Python hook is not run", () => {
  it("in the text and in --json skill_notes", () => {
    const pack = tempDir("skillgate-pyhook-pack-");
    cpSync(FIXTURE_PACK, pack, { recursive: true });
    writeTree(pack, {
      "ucagent/py-hook/SKILL.md": "---\nname: py-hook\ndescription: A UCAgent skill.\n---\n# Body\n",
      "ucagent/py-hook/scripts/__init__.py": "def setup_vstage(stage):\n    pass\n",
    });
    const fixture = makeFixture({ packPath: pack });
    try {
      const status = (...extra: string[]) =>
        spawnSync(
          join(REPO, "node_modules", ".bin", "tsx"),
          [
            "runtime/cli/main.ts",
            "status",
            "--workspace",
            fixture.ws,
            "--config",
            fixture.configFile,
            ...extra,
          ],
          { cwd: REPO, encoding: "utf8", env: fixture.env },
        );
      const note =
        "ucagent/py-hook: scripts/__init__.py is a UCAgent (Python) stage hook (setup_vstage); its Python hook is not run here — skillgate runs only hooks.ts beside SKILL.md (export setupStage(stage)); the skill still loads, port the hook to hooks.ts if its stage needs that guidance";
      const json = status("--json");
      expect(json.status, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).skill_notes).toEqual([note]);
      const text = status();
      expect(text.status, text.stderr).toBe(0);
      expect(text.stdout).toContain(`Skill notes:\n  ${note}`);
    } finally {
      fixture.cleanup();
    }
  });
});
