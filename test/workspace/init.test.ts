import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundledPackRoot, packageRoot, workspacePaths } from "../../runtime/contracts/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import { type CopyManifest, initWorkspace } from "../../runtime/workspace/index.js";
import {
  configWith,
  copyFixture,
  FIXTURE_EXTRA_ROOT,
  FIXTURE_PACK,
  FIXTURE_SINGLE_SKILL,
  listDirs,
  listFiles,
  modeOf,
  tempDir,
} from "./helpers.js";

let tmp: ReturnType<typeof tempDir>;
let ws: string;
beforeEach(() => {
  tmp = tempDir();
  ws = join(tmp.dir, "ws");
});
afterEach(() => tmp.cleanup());

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const fixedNow = () => new Date("2026-01-02T03:04:05.000Z");

async function initError(promise: Promise<unknown>): Promise<SkillgateError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SkillgateError) return error;
    throw error;
  }
  throw new Error("init did not fail");
}

describe("init layout", () => {
  it("copies skill folders, extra paths under ext/, script_runner.json; records hashes; read-only", async () => {
    const config = configWith(
      { pack_path: FIXTURE_PACK, extra_skill_path: [FIXTURE_EXTRA_ROOT, FIXTURE_SINGLE_SKILL] },
      { DUT: "design", OUT: "/abs/out" },
    );
    const report = await initWorkspace({ workspace: ws, config, now: fixedNow });
    const paths = workspacePaths(ws);

    expect(listFiles(paths.skillsDir)).toEqual([
      "ext/lint/delta/SKILL.md",
      "ext/lint/delta/scripts/d.js",
      "ext/single-skill/SKILL.md",
      "ext/single-skill/scripts/s.js",
      "review/alpha/SKILL.md",
      "review/alpha/references/guide.md",
      "review/alpha/scripts/check.py",
      "review/beta/SKILL.md",
      "script_runner.json",
      "tools/gamma/SKILL.md",
      "tools/gamma/scripts/run.sh",
    ]);
    expect(report.skills).toEqual([
      "ext/lint/delta",
      "ext/single-skill",
      "review/alpha",
      "review/beta",
      "tools/gamma",
    ]);
    expect(report).toMatchObject({
      files: 11,
      written: 11,
      unchanged: 0,
      removed: 0,
      excluded: [],
      warnings: [],
    });
    expect(readFileSync(join(paths.skillsDir, "ext/single-skill/scripts/s.js"), "utf8")).toBe(
      readFileSync(join(FIXTURE_SINGLE_SKILL, "scripts/s.js"), "utf8"),
    );

    // Read-only copies: files 0444 (0555 when the source was executable), folders 0555.
    expect(modeOf(join(paths.skillsDir, "review/alpha/SKILL.md"))).toBe(0o444);
    expect(modeOf(join(paths.skillsDir, "tools/gamma/scripts/run.sh"))).toBe(0o555);
    for (const dir of listDirs(paths.skillsDir)) expect(modeOf(dir)).toBe(0o555);

    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8")) as CopyManifest;
    expect(Object.keys(manifest.files)).toEqual(listFiles(paths.skillsDir));
    for (const [rel, entry] of Object.entries(manifest.files)) {
      expect(entry.sha256).toBe(sha256(join(paths.skillsDir, rel)));
      expect(entry.size).toBe(statSync(join(paths.skillsDir, rel)).size);
    }
    expect(manifest.files["ext/lint/delta/SKILL.md"]?.source).toBe(
      join(FIXTURE_EXTRA_ROOT, "lint/delta/SKILL.md"),
    );

    const runtime = JSON.parse(readFileSync(paths.runtimeConfig, "utf8"));
    expect(runtime).toEqual({
      schema_version: 1,
      workspace: paths.root,
      DUT: join(paths.root, "design"),
      OUT: "/abs/out",
      skills_enabled: true,
      skills_dir: paths.skillsDir,
      pack_path: FIXTURE_PACK.replace(/\/$/, ""),
      initialised_at: "2026-01-02T03:04:05.000Z",
    });
    expect(report.runtimeConfig).toEqual(runtime);
  });

  it("does not copy files outside skill folders, symlinks, or VCS/dependency folders", async () => {
    const pack = copyFixture(FIXTURE_PACK, join(tmp.dir, "pack"));
    mkdirSync(join(pack, "review/alpha/node_modules/x"), { recursive: true });
    writeFileSync(join(pack, "review/alpha/node_modules/x/index.js"), "");
    mkdirSync(join(pack, "review/alpha/.git"));
    writeFileSync(join(pack, "review/alpha/.git/HEAD"), "");
    symlinkSync("/etc/passwd", join(pack, "review/alpha/scripts/passwd"));
    const report = await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    const files = listFiles(workspacePaths(ws).skillsDir);
    expect(files.filter((f) => f.startsWith("review/alpha/"))).toEqual([
      "review/alpha/SKILL.md",
      "review/alpha/references/guide.md",
      "review/alpha/scripts/check.py",
    ]);
    expect(files).not.toContain("README.md");
    expect(report.warnings).toEqual([
      `${join(pack, "review/alpha/scripts/passwd")}: symbolic link not copied (copy the real file into the skill)`,
    ]);
  });

  it("takes script_runner.json from the pack's parent when the pack has none", async () => {
    const root = join(tmp.dir, "src");
    const pack = copyFixture(FIXTURE_PACK, join(root, "skills"));
    rmSync(join(pack, "script_runner.json"));
    writeFileSync(join(root, "script_runner.json"), '{ ".py": "python3" }\n');
    await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(readFileSync(join(workspacePaths(ws).skillsDir, "script_runner.json"), "utf8")).toBe(
      '{ ".py": "python3" }\n',
    );
    rmSync(join(root, "script_runner.json"));
    const again = await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(existsSync(join(workspacePaths(ws).skillsDir, "script_runner.json"))).toBe(false);
    expect(again.removed).toBe(1);
  });

  it("the bundled pack is the repo's skills/ folder and copies with the default config", async () => {
    expect(bundledPackRoot()).toBe(join(packageRoot(), "skills"));
    expect(existsSync(join(packageRoot(), "package.json"))).toBe(true);
    const report = await initWorkspace({ workspace: ws, config: configWith({}) });
    expect(report.packPath).toBe(bundledPackRoot());
    for (const id of report.skills) expect(existsSync(join(report.skillsDir, id, "SKILL.md"))).toBe(true);
    const runnerSource = [
      join(bundledPackRoot(), "script_runner.json"),
      join(packageRoot(), "script_runner.json"),
    ].find(existsSync);
    expect(runnerSource).toBeDefined();
    expect(readFileSync(join(report.skillsDir, "script_runner.json"), "utf8")).toBe(
      readFileSync(runnerSource!, "utf8"),
    );
  });
});

describe("enable_skill_list / disable_skill_list", () => {
  const extras = [FIXTURE_EXTRA_ROOT, FIXTURE_SINGLE_SKILL];
  const cases: [string, string[], string[], string[], string[]][] = [
    [
      "no lists: everything",
      [],
      [],
      ["ext/lint/delta", "ext/single-skill", "review/alpha", "review/beta", "tools/gamma"],
      [],
    ],
    ["enable by folder name", ["alpha"], [], ["review/alpha"], []],
    [
      "enable by id, incl. an ext id",
      ["review/beta", "ext/single-skill"],
      [],
      ["ext/single-skill", "review/beta"],
      [],
    ],
    ["enable an extra by its path below P", ["lint/delta"], [], ["ext/lint/delta"], []],
    ["enable wins over disable", ["alpha", "gamma"], ["alpha"], ["review/alpha", "tools/gamma"], []],
    [
      "disable by folder name and id",
      [],
      ["gamma", "review/beta", "delta"],
      ["ext/single-skill", "review/alpha"],
      [],
    ],
    [
      "unknown names are warned about",
      ["alpha", "nope"],
      ["zeta"],
      ["review/alpha"],
      [
        'skill.enable_skill_list entry "nope" matches no skill id or folder name',
        'skill.disable_skill_list entry "zeta" matches no skill id or folder name',
      ],
    ],
  ];
  it.each(cases)("%s", async (_name, enable, disable, expected, warnings) => {
    const config = configWith({
      pack_path: FIXTURE_PACK,
      extra_skill_path: extras,
      enable_skill_list: enable,
      disable_skill_list: disable,
    });
    const report = await initWorkspace({ workspace: ws, config });
    expect(report.skills).toEqual(expected);
    const copiedSkills = listFiles(report.skillsDir)
      .filter((f) => f.endsWith("/SKILL.md"))
      .map((f) => f.slice(0, -"/SKILL.md".length));
    expect(copiedSkills).toEqual(expected);
    expect(report.excluded.length + report.skills.length).toBe(5);
    expect(report.warnings).toEqual(warnings);
  });
});

describe("re-init", () => {
  it("is idempotent: unchanged files are not rewritten", async () => {
    const config = configWith({ pack_path: FIXTURE_PACK });
    await initWorkspace({ workspace: ws, config });
    const file = join(workspacePaths(ws).skillsDir, "review/alpha/scripts/check.py");
    const before = statSync(file, { bigint: true });
    const again = await initWorkspace({ workspace: ws, config });
    const after = statSync(file, { bigint: true });
    expect(again).toMatchObject({ written: 0, unchanged: again.files, removed: 0 });
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeNs).toBe(before.mtimeNs);
  });

  it("restores a copied file edited after init", async () => {
    const config = configWith({ pack_path: FIXTURE_PACK });
    await initWorkspace({ workspace: ws, config });
    const file = join(workspacePaths(ws).skillsDir, "review/alpha/scripts/check.py");
    chmodSync(file, 0o644);
    writeFileSync(file, "print('tampered')\n");
    const again = await initWorkspace({ workspace: ws, config });
    expect(again.written).toBe(1);
    expect(readFileSync(file, "utf8")).toBe(
      readFileSync(join(FIXTURE_PACK, "review/alpha/scripts/check.py"), "utf8"),
    );
    expect(modeOf(file)).toBe(0o444);
  });

  it("prunes files and folders that left the source, and files added to the copy by hand", async () => {
    const pack = copyFixture(FIXTURE_PACK, join(tmp.dir, "pack"));
    const config = configWith({ pack_path: pack });
    await initWorkspace({ workspace: ws, config });
    const skillsDir = workspacePaths(ws).skillsDir;

    rmSync(join(pack, "review/alpha/references"), { recursive: true });
    rmSync(join(pack, "tools/gamma"), { recursive: true });
    writeFileSync(join(pack, "review/beta/notes.md"), "new\n");
    chmodSync(join(skillsDir, "review/beta"), 0o755);
    writeFileSync(join(skillsDir, "review/beta/stray.txt"), "added by hand\n");

    const again = await initWorkspace({ workspace: ws, config });
    expect(listFiles(skillsDir)).toEqual([
      "review/alpha/SKILL.md",
      "review/alpha/scripts/check.py",
      "review/beta/SKILL.md",
      "review/beta/notes.md",
      "script_runner.json",
    ]);
    expect(existsSync(join(skillsDir, "tools"))).toBe(false);
    expect(existsSync(join(skillsDir, "review/alpha/references"))).toBe(false);
    // guide.md + gamma's SKILL.md and run.sh + stray.txt
    expect(again.removed).toBe(4);
    expect(again.written).toBe(1);
    const manifest = JSON.parse(readFileSync(workspacePaths(ws).manifest, "utf8")) as CopyManifest;
    expect(Object.keys(manifest.files)).toEqual(listFiles(skillsDir));
    for (const dir of listDirs(skillsDir)) expect(modeOf(dir)).toBe(0o555);
  });

  it("a disabled skill's copy is removed on the next init", async () => {
    await initWorkspace({ workspace: ws, config: configWith({ pack_path: FIXTURE_PACK }) });
    const report = await initWorkspace({
      workspace: ws,
      config: configWith({ pack_path: FIXTURE_PACK, disable_skill_list: ["gamma"] }),
    });
    expect(report.removed).toBe(2);
    expect(existsSync(join(report.skillsDir, "tools"))).toBe(false);
  });
});

describe("skills disabled", () => {
  it("copies nothing, still writes runtime_config.json, and ignores a missing pack", async () => {
    const config = configWith({ use_skill: false, pack_path: join(tmp.dir, "no-such-pack") });
    const report = await initWorkspace({ workspace: ws, config, now: fixedNow });
    const paths = workspacePaths(ws);
    expect(existsSync(paths.skillsDir)).toBe(false);
    expect(existsSync(paths.manifest)).toBe(false);
    expect(report).toMatchObject({ skillsEnabled: false, packPath: null, skills: [], files: 0, written: 0 });
    expect(JSON.parse(readFileSync(paths.runtimeConfig, "utf8"))).toEqual({
      schema_version: 1,
      workspace: paths.root,
      DUT: join(paths.root, "dut"),
      OUT: join(paths.root, "out"),
      skills_enabled: false,
      skills_dir: paths.skillsDir,
      pack_path: null,
      initialised_at: "2026-01-02T03:04:05.000Z",
    });
  });
});

describe("progress", () => {
  it("reports every file against the total", async () => {
    const seen: { copied: number; total: number }[] = [];
    await initWorkspace({
      workspace: ws,
      config: configWith({ pack_path: FIXTURE_PACK }),
      onProgress: (progress) => seen.push(progress),
    });
    expect(seen.map((p) => p.copied)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(seen.map((p) => p.total))).toEqual(new Set([7]));
  });
});

describe("init errors", () => {
  it("a missing pack_path", async () => {
    const missing = join(tmp.dir, "no-pack");
    const error = await initError(
      initWorkspace({ workspace: ws, config: configWith({ pack_path: missing }) }),
    );
    expect(error.code).toBe("PATH_NOT_FOUND");
    expect(error.message).toBe(
      `skill pack ${missing} does not exist; set skill.pack_path to a folder of skills, or remove it to use the bundled pack`,
    );
  });

  it("a missing extra path", async () => {
    const missing = join(tmp.dir, "no-extra");
    const error = await initError(
      initWorkspace({
        workspace: ws,
        config: configWith({ pack_path: FIXTURE_PACK, extra_skill_path: [missing] }),
      }),
    );
    expect(error.code).toBe("PATH_NOT_FOUND");
    expect(error.message).toBe(
      `extra skill path ${missing} does not exist; fix the path in skill.extra_skill_path (or --extra-skill-path) or remove it`,
    );
  });

  it("an extra path that is a file", async () => {
    const file = join(FIXTURE_SINGLE_SKILL, "SKILL.md");
    const error = await initError(
      initWorkspace({
        workspace: ws,
        config: configWith({ pack_path: FIXTURE_PACK, extra_skill_path: file }),
      }),
    );
    expect(error.message).toBe(
      `extra skill path ${file} is not a folder; fix the path in skill.extra_skill_path (or --extra-skill-path) or remove it`,
    );
  });

  it("a workspace path that is a file", async () => {
    writeFileSync(ws, "not a folder");
    const error = await initError(
      initWorkspace({ workspace: ws, config: configWith({ pack_path: FIXTURE_PACK }) }),
    );
    expect(error.code).toBe("PATH_NOT_FOUND");
    expect(error.message).toBe(
      `workspace ${ws} is a file, not a folder; give a folder path (it is created if missing)`,
    );
  });

  it("two extra paths giving the same skill id", async () => {
    const other = join(tmp.dir, "other", "single-skill");
    mkdirSync(dirname(other), { recursive: true });
    copyFixture(FIXTURE_SINGLE_SKILL, other);
    const error = await initError(
      initWorkspace({
        workspace: ws,
        config: configWith({ pack_path: FIXTURE_PACK, extra_skill_path: [FIXTURE_SINGLE_SKILL, other] }),
      }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `two skills would be copied to the same id ext/single-skill: ${FIXTURE_SINGLE_SKILL.replace(/\/$/, "")} and ${other}; rename one folder or drop one path from skill.extra_skill_path`,
    );
  });
});
