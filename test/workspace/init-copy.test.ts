// The two copies init makes (runtime/workspace/init-copy.ts): copyPack's report, manifest, progress and read-only copy;
// syncGuides mirroring the pack's stage guides into <ws>/guide_doc (skills on or off): copy, refresh, prune, records.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundledPackRoot, workspacePaths } from "../../runtime/contracts/index.js";
import { type InitManifest, initWorkspace } from "../../runtime/workspace/index.js";
import { copyPack, syncGuides } from "../../runtime/workspace/init-copy.js";
import { configWith, listFiles, modeOf, tempDir } from "./helpers.js";

let tmp: ReturnType<typeof tempDir>;
let repo: string;
let pack: string;
let ws: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const SKILL_MD = "---\nname: a\ndescription: A test skill.\n---\n# a\n";
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function manifestOf(workspace: string): InitManifest {
  return JSON.parse(readFileSync(workspacePaths(workspace).manifest, "utf8")) as InitManifest;
}

beforeEach(() => {
  tmp = tempDir("skillgate-guides-");
  repo = join(tmp.dir, "repo");
  pack = join(repo, "skills");
  ws = join(tmp.dir, "ws");
  write(join(pack, "grp", "a", "SKILL.md"), SKILL_MD);
  write(join(repo, "guide_doc", "one.md"), "# One\n");
  write(join(repo, "guide_doc", "sub", "two.md"), "# Two\n");
});

afterEach(() => {
  // init marks copies read-only; open them again so the temp tree can go.
  for (const dir of [
    join(ws, ".ucagent", "skills"),
    join(ws, ".ucagent", "skills", "grp"),
    join(ws, ".ucagent", "skills", "grp", "a"),
  ]) {
    if (existsSync(dir)) chmodSync(dir, 0o755);
  }
  tmp.cleanup();
});

describe("guide_doc copy", () => {
  it("copies <pack>/../guide_doc into <ws>/guide_doc read-only and records it in the manifest", async () => {
    const report = await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(listFiles(join(ws, "guide_doc"))).toEqual(["one.md", "sub/two.md"]);
    expect(readFileSync(join(ws, "guide_doc", "sub", "two.md"), "utf8")).toBe("# Two\n");
    expect(modeOf(join(ws, "guide_doc", "one.md"))).toBe(0o444);
    expect(modeOf(join(ws, "guide_doc"))).toBe(0o755);
    expect(report.guides).toEqual({
      source: join(repo, "guide_doc"),
      dir: join(ws, "guide_doc"),
      files: ["guide_doc/one.md", "guide_doc/sub/two.md"],
      written: 2,
      removed: 0,
    });
    const manifest = manifestOf(ws);
    expect(manifest.guide_path).toBe(join(repo, "guide_doc"));
    expect(manifest.guides).toEqual({
      "guide_doc/one.md": { sha256: sha("# One\n"), size: 6, source: join(repo, "guide_doc", "one.md") },
      "guide_doc/sub/two.md": {
        sha256: sha("# Two\n"),
        size: 6,
        source: join(repo, "guide_doc", "sub", "two.md"),
      },
    });
    // Guides are not skills: the skill copy and its manifest entries are unchanged by them.
    expect(Object.keys(manifest.files)).toEqual(["grp/a/SKILL.md"]);
    expect(report.files).toBe(1);
  });

  it("prefers <pack>/guide_doc over <pack>/../guide_doc", async () => {
    write(join(pack, "guide_doc", "inner.md"), "# Inner\n");
    const report = await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(report.guides.source).toBe(join(pack, "guide_doc"));
    expect(listFiles(join(ws, "guide_doc"))).toEqual(["inner.md"]);
  });

  it("copies nothing and creates no folder when the pack has no guides", async () => {
    rmSync(join(repo, "guide_doc"), { recursive: true });
    const report = await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(report.guides).toEqual({
      source: null,
      dir: join(ws, "guide_doc"),
      files: [],
      written: 0,
      removed: 0,
    });
    expect(existsSync(join(ws, "guide_doc"))).toBe(false);
    expect(manifestOf(ws).guides).toEqual({});
  });

  it("copies the bundled pack's guides (the repo's guide_doc/) by default", async () => {
    const report = await initWorkspace({ workspace: ws, config: configWith({ use_skill: false }) });
    expect(report.guides.source).toBe(join(dirname(bundledPackRoot()), "guide_doc"));
    expect(report.guides.files).toEqual([
      "guide_doc/bug_reproduction.md",
      "guide_doc/static_bug_analysis.md",
      "guide_doc/summary.md",
    ]);
    expect(readFileSync(join(ws, "guide_doc", "summary.md"), "utf8")).toBe(
      readFileSync(join(dirname(bundledPackRoot()), "guide_doc", "summary.md"), "utf8"),
    );
  });
});

describe("guide_doc refresh and prune", () => {
  it("rewrites only guides whose content changed, and restores an edited workspace copy", async () => {
    const config = configWith({ pack_path: pack });
    await initWorkspace({ workspace: ws, config });
    writeFileSync(join(repo, "guide_doc", "one.md"), "# One, revised\n");
    const second = await initWorkspace({ workspace: ws, config });
    expect(second.guides).toMatchObject({ written: 1, removed: 0 });
    expect(readFileSync(join(ws, "guide_doc", "one.md"), "utf8")).toBe("# One, revised\n");
    expect(manifestOf(ws).guides?.["guide_doc/one.md"]?.sha256).toBe(sha("# One, revised\n"));

    chmodSync(join(ws, "guide_doc", "sub", "two.md"), 0o644);
    writeFileSync(join(ws, "guide_doc", "sub", "two.md"), "edited by the agent\n");
    const third = await initWorkspace({ workspace: ws, config });
    expect(third.guides).toMatchObject({ written: 1, removed: 0 });
    expect(readFileSync(join(ws, "guide_doc", "sub", "two.md"), "utf8")).toBe("# Two\n");
    expect(modeOf(join(ws, "guide_doc", "sub", "two.md"))).toBe(0o444);

    const fourth = await initWorkspace({ workspace: ws, config });
    expect(fourth.guides).toMatchObject({ written: 0, removed: 0 });
  });

  it("prunes guides that left the source (and their empty folders) but keeps files the agent added", async () => {
    const config = configWith({ pack_path: pack });
    await initWorkspace({ workspace: ws, config });
    write(join(ws, "guide_doc", "my_notes.md"), "mine\n");
    rmSync(join(repo, "guide_doc", "sub"), { recursive: true });
    const report = await initWorkspace({ workspace: ws, config });
    expect(report.guides).toMatchObject({ files: ["guide_doc/one.md"], written: 0, removed: 1 });
    expect(listFiles(join(ws, "guide_doc"))).toEqual(["my_notes.md", "one.md"]);
    expect(existsSync(join(ws, "guide_doc", "sub"))).toBe(false);
    expect(Object.keys(manifestOf(ws).guides ?? {})).toEqual(["guide_doc/one.md"]);
  });

  it("prunes every recorded guide when the pack's guide folder is gone", async () => {
    const config = configWith({ pack_path: pack });
    await initWorkspace({ workspace: ws, config });
    rmSync(join(repo, "guide_doc"), { recursive: true });
    const report = await initWorkspace({ workspace: ws, config });
    expect(report.guides).toMatchObject({ source: null, files: [], removed: 2 });
    expect(listFiles(join(ws, "guide_doc"))).toEqual([]);
  });

  it("replaces a symlink planted at <ws>/guide_doc with a real folder instead of writing through it", async () => {
    const elsewhere = join(tmp.dir, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(ws);
    symlinkSync(elsewhere, join(ws, "guide_doc"));
    await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    expect(listFiles(elsewhere)).toEqual([]);
    expect(listFiles(join(ws, "guide_doc"))).toEqual(["one.md", "sub/two.md"]);
  });

  it("writes nothing when the workspace is the pack's own checkout", async () => {
    const report = await initWorkspace({ workspace: repo, config: configWith({ pack_path: pack }) });
    expect(report.guides).toMatchObject({
      written: 0,
      removed: 0,
      files: ["guide_doc/one.md", "guide_doc/sub/two.md"],
    });
    expect(modeOf(join(repo, "guide_doc", "one.md"))).toBe(0o644);
    chmodSync(join(repo, ".ucagent", "skills"), 0o755);
    chmodSync(join(repo, ".ucagent", "skills", "grp"), 0o755);
    chmodSync(join(repo, ".ucagent", "skills", "grp", "a"), 0o755);
  });
});

describe("guide_doc with skills disabled", () => {
  it("still copies the guides, copies no skill and records the guides in a manifest", async () => {
    const report = await initWorkspace({
      workspace: ws,
      config: configWith({ use_skill: false, pack_path: pack }),
    });
    expect(report).toMatchObject({ skillsEnabled: false, packPath: null, skills: [], files: 0 });
    expect(existsSync(workspacePaths(ws).skillsDir)).toBe(false);
    expect(listFiles(join(ws, "guide_doc"))).toEqual(["one.md", "sub/two.md"]);
    const manifest = manifestOf(ws);
    expect(manifest).toMatchObject({
      pack_path: null,
      skills: [],
      files: {},
      guide_path: join(repo, "guide_doc"),
    });
    expect(Object.keys(manifest.guides ?? {})).toEqual(["guide_doc/one.md", "guide_doc/sub/two.md"]);
  });

  it("refreshes and prunes guides while keeping the skill copy records of an earlier enabled init", async () => {
    await initWorkspace({ workspace: ws, config: configWith({ pack_path: pack }) });
    writeFileSync(join(repo, "guide_doc", "one.md"), "# One v2\n");
    rmSync(join(repo, "guide_doc", "sub"), { recursive: true });
    const report = await initWorkspace({
      workspace: ws,
      config: configWith({ use_skill: false, pack_path: pack }),
    });
    expect(report.guides).toMatchObject({ files: ["guide_doc/one.md"], written: 1, removed: 1 });
    expect(readFileSync(join(ws, "guide_doc", "one.md"), "utf8")).toBe("# One v2\n");
    const manifest = manifestOf(ws);
    expect(Object.keys(manifest.files)).toEqual(["grp/a/SKILL.md"]);
    expect(manifest.skills).toEqual(["grp/a"]);
  });

  it("a missing pack with skills disabled copies no guides and is not an error", async () => {
    const report = await initWorkspace({
      workspace: ws,
      config: configWith({ use_skill: false, pack_path: join(tmp.dir, "no-such-pack") }),
    });
    expect(report.guides).toEqual({
      source: null,
      dir: join(ws, "guide_doc"),
      files: [],
      written: 0,
      removed: 0,
    });
    expect(existsSync(workspacePaths(ws).manifest)).toBe(false);
  });
});

describe("copyPack and syncGuides directly", () => {
  it("copyPack reports, records and copies read-only what the plan holds, with progress per file", async () => {
    const paths = workspacePaths(ws);
    const progress: string[] = [];
    const now = new Date("2026-01-02T03:04:05.000Z");
    const { report, manifest } = await copyPack(
      paths,
      configWith({ pack_path: pack }),
      (step) => progress.push(`${step.copied}/${step.total}`),
      now,
    );
    expect(report).toMatchObject({
      skills: ["grp/a"],
      files: 1,
      written: 1,
      unchanged: 0,
      removed: 0,
      excluded: [],
    });
    expect(progress).toEqual(["1/1"]);
    expect(manifest).toMatchObject({ schema_version: 1, generated_at: now.toISOString(), skills: ["grp/a"] });
    expect(manifest.files["grp/a/SKILL.md"]?.sha256).toBe(sha(SKILL_MD));
    expect(modeOf(join(paths.skillsDir, "grp", "a"))).toBe(0o555);
    const again = await copyPack(paths, configWith({ pack_path: pack }), undefined, now);
    expect(again.report).toMatchObject({ written: 0, unchanged: 1 });
  });

  it("copyPack names a missing pack and says how to fix it", async () => {
    await expect(
      copyPack(workspacePaths(ws), configWith({ pack_path: join(tmp.dir, "none") }), undefined, new Date()),
    ).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `skill pack ${join(tmp.dir, "none")} does not exist; set skill.pack_path to a folder of skills, or remove it to use the bundled pack`,
    });
  });

  it("syncGuides prunes only guides recorded earlier, never files the agent added", async () => {
    const paths = workspacePaths(ws);
    const first = await syncGuides(paths, join(repo, "guide_doc"), {}, []);
    expect(first.report.files).toEqual(["guide_doc/one.md", "guide_doc/sub/two.md"]);
    write(join(ws, "guide_doc", "mine.md"), "agent notes");
    rmSync(join(repo, "guide_doc", "sub"), { recursive: true });
    const second = await syncGuides(paths, join(repo, "guide_doc"), first.entries, []);
    expect(second.report).toMatchObject({ files: ["guide_doc/one.md"], written: 0, removed: 1 });
    expect(existsSync(join(ws, "guide_doc", "sub"))).toBe(false);
    expect(readFileSync(join(ws, "guide_doc", "mine.md"), "utf8")).toBe("agent notes");
  });
});
