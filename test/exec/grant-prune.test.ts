// runtime/exec/grant-prune.ts: which areas' grant caches go (pure), noting and pruning on real folders, and real `skillgate call` runs on workspaces then deleted.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AreaState,
  MAX_GRANT_AREAS,
  noteGrantArea,
  notesDirFor,
  staleAreas,
} from "../../runtime/exec/grant-prune.js";
import { type Bed, makeBed } from "../adversarial/tool-bed.js";
import { MAIN, TSX } from "../mcp/helpers.js";
import { runProcess } from "../support/process.js";
import { tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";

const area = (
  key: string,
  writtenMs: number,
  note: AreaState["note"],
  present: AreaState["present"],
): AreaState => ({
  key,
  note,
  present,
  writtenMs,
});
const live = (key: string, writtenMs: number) => area(key, writtenMs, [["/w", "1:2"]], ["1:2"]);

describe("staleAreas", () => {
  it.each([
    ["a live area stays", [live("a", 1)], "k", []],
    ["a root gone", [area("a", 1, [["/w", "1:2"]], [null])], "k", ["a"]],
    ["a root replaced by another folder", [area("a", 1, [["/w", "1:2"]], ["1:3"])], "k", ["a"]],
    [
      "one of two roots gone",
      [
        area(
          "a",
          1,
          [
            ["/w", "1:2"],
            ["/x", "1:4"],
          ],
          ["1:2", null],
        ),
      ],
      "k",
      ["a"],
    ],
    ["an unreadable note", [area("a", 1, null, [])], "k", ["a"]],
    ["the area in use is never dropped, even gone", [area("k", 1, [["/w", "1:2"]], [null])], "k", []],
  ] as const)("%s", (_name, areas, keep, dropped) => {
    expect(staleAreas(areas as unknown as AreaState[], keep)).toEqual(dropped);
  });

  it("beyond the cap drops the least recently written, never the area in use", () => {
    const areas = [live("k", 0), live("new", 30), live("mid", 20), live("old", 10)];
    expect(staleAreas(areas, "k", 3)).toEqual(["old"]);
    expect(staleAreas(areas, "k", 1)).toEqual(["new", "mid", "old"]);
    expect(MAX_GRANT_AREAS).toBe(64);
  });
});

describe("noteGrantArea on real folders", () => {
  const temp = tempRoot("skillgate-grant-prune-", { realpath: true });
  afterAll(() => temp.cleanup());
  const caches = temp.path("home/cache/acl-grants");
  const cacheOf = (key: string) => join(caches, `${key}.json`);
  const listed = (dir: string) => readdirSync(dir).sort();
  mkdirSync(caches, { recursive: true });

  it("notes an area once, drops the cache and note of an area whose root was deleted, and keeps the live one", async () => {
    const [one, two] = [temp.path("ws1"), temp.path("ws2")];
    mkdirSync(one);
    mkdirSync(two);
    await noteGrantArea(cacheOf("one"), [one]);
    writeFileSync(cacheOf("one"), "{}");
    const note = JSON.parse(readFileSync(join(notesDirFor(cacheOf("one")), "one.json"), "utf8"));
    expect(note.format).toBe(1);
    expect(note.roots.map(([path]: [string]) => path)).toEqual([one]);
    // Noted again with the same root: the cache stays.
    await noteGrantArea(cacheOf("one"), [one]);
    expect(listed(caches)).toEqual(["one.json"]);
    rmSync(one, { recursive: true });
    await noteGrantArea(cacheOf("two"), [two]);
    writeFileSync(cacheOf("two"), "{}");
    expect(listed(caches)).toEqual(["two.json"]);
    expect(listed(notesDirFor(cacheOf("two")))).toEqual(["two.json"]);
  });

  it("a root replaced by a new folder at the same path: the old cache goes when the area is next used", async () => {
    const ws = temp.path("ws2");
    writeFileSync(cacheOf("two"), '{"old":true}');
    renameSync(ws, temp.path("ws2-old"));
    mkdirSync(ws);
    await noteGrantArea(cacheOf("two"), [ws]);
    expect(listed(caches)).toEqual([]);
    expect(listed(notesDirFor(cacheOf("two")))).toEqual(["two.json"]);
  });

  it("a cache written before notes existed (no note) goes at the next new area; caches stay bounded by the cap", async () => {
    writeFileSync(cacheOf("legacy"), "{}");
    const dirs = Array.from({ length: MAX_GRANT_AREAS + 5 }, (_, i) => temp.path(`many/${i}`));
    for (const [i, dir] of dirs.entries()) {
      mkdirSync(dir, { recursive: true });
      await noteGrantArea(cacheOf(`m${i}`), [dir]);
      writeFileSync(cacheOf(`m${i}`), "{}");
    }
    const kept = listed(caches);
    expect(kept).not.toContain("legacy.json");
    expect(kept.length).toBeLessThanOrEqual(MAX_GRANT_AREAS);
    expect(kept).toContain(`m${MAX_GRANT_AREAS + 4}.json`);
  });
});

describe("through real `skillgate call RunSkillScript` runs (root)", () => {
  const WRITE = `import os\nopen(os.path.join(os.environ["OUT"], "x.txt"), "w").write("x")\nprint("ok")\n`;
  let bed: Bed;
  let caches: string;
  beforeAll(async () => {
    expect(
      process.getuid?.(),
      "ACL grants (and their caches) are made only as root; run this test as root",
    ).toBe(0);
    bed = await makeBed({ skills: [{ name: "grants", scripts: { "w.py": WRITE } }] });
    caches = join(bed.env.SKILLGATE_HOME as string, "cache", "acl-grants");
  }, 120_000);
  afterAll(() => bed?.cleanup());

  /** `skillgate call RunSkillScript` in workspace `ws` (made when missing) with the bed's config, skill and home. */
  async function ran(ws: string): Promise<void> {
    mkdirSync(join(ws, "out"), { recursive: true });
    const args = { commands: [["ext/grants", "w.py", ""]] };
    const argv = [
      MAIN,
      "call",
      "RunSkillScript",
      JSON.stringify(args),
      "--workspace",
      ws,
      "--config",
      bed.configFile,
    ];
    const { code, stdout, stderr } = await runProcess(
      TSX,
      [...argv, "--extra-skill-path", bed.extra, "--json"],
      {
        cwd: REPO_ROOT,
        env: bed.env,
      },
    );
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    const result = JSON.parse(stdout) as {
      structured: { commands: Array<{ status: string; output: string }> };
    };
    expect(result.structured.commands[0]?.status, result.structured.commands[0]?.output).toBe("ok");
  }
  const cacheFiles = () => readdirSync(caches).filter((name) => name.endsWith(".json"));

  it("the cache of a workspace deleted since goes at the next new workspace's run; the live ones stay", async () => {
    const [a, b, c] = [bed.ws, join(bed.dir, "ws-b"), join(bed.dir, "ws-c")];
    await ran(a);
    const [ofA] = cacheFiles();
    await ran(b);
    expect(cacheFiles()).toHaveLength(2);
    const ofB = cacheFiles().find((name) => name !== ofA);
    rmSync(a, { recursive: true, force: true });
    await ran(c);
    const after = cacheFiles();
    expect(after).toHaveLength(2);
    expect(after).not.toContain(ofA);
    expect(after).toContain(ofB);
    expect(readdirSync(join(caches, "..", "acl-grant-areas")).sort()).toEqual([...after].sort());
    // The live workspace's cache still serves: its next run is ok and keeps it.
    await ran(b);
    expect(cacheFiles().sort()).toEqual([...after].sort());
  }, 180_000);
});
