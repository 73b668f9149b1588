// The native tree prefetch against readdirSync and the JavaScript-only scan, on a hostile tree (needs the built module).
import fs, { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { scanSkillRoot } from "../../runtime/skills/index.js";
import { takeTreePrefetch } from "../../runtime/skills/tree-prefetch.js";
import { ensureBuilt, REPO } from "../bench/built.js";
import { writeHostileTree } from "../support/hostile-tree.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let root: string;

beforeAll(() => {
  temp = tempRoot("sg-prefetch-", { realpath: true });
  root = temp.path("tree");
  fs.mkdirSync(root);
  writeHostileTree(root);
});
afterAll(() => temp.cleanup());
afterEach(() => {
  delete process.env.SKILLGATE_NATIVE;
  vi.restoreAllMocks();
});

const built = join(import.meta.dirname, "..", "..", "dist", "native", "tree-prefetch.node");

function prefetchOf(tree: string, maxDepth = 8) {
  const prefetch = takeTreePrefetch(tree, maxDepth);
  if (!prefetch)
    throw new Error(
      `no native prefetch: ${built} was not built (npm run build with a C compiler) or does not load`,
    );
  return prefetch;
}

const shape = (entries: Array<Pick<fs.Dirent, "name" | "isFile" | "isDirectory" | "isSymbolicLink">>) =>
  entries.map((entry) => [entry.name, entry.isFile(), entry.isDirectory(), entry.isSymbolicLink()]);

describe("native tree prefetch", () => {
  it("lists every folder as readdirSync does, except those it must leave to the scanner", () => {
    const prefetch = prefetchOf(root);
    const recorded = (relative: string) => prefetch.entries(relative === "" ? root : join(root, relative));
    for (const relative of [
      "plain",
      "plain/alpha",
      "plain/alpha/scripts",
      "bom",
      "many",
      "hooked/scripts",
      "fifo",
    ])
      expect(shape(recorded(relative) ?? [])).toEqual(
        shape(readdirSync(relative === "" ? root : join(root, relative), { withFileTypes: true })),
      );
    expect(recorded("many")).toBeUndefined(); // handed out once: a second look goes to the disk
    expect(recorded("many/s-299")?.map((entry) => entry.name)).toEqual(["SKILL.md"]);
    expect(recorded("emoji-\u{1f600}")?.map((entry) => entry.name)).toEqual(["SKILL.md"]);
    expect(recorded("d1/d2/d3/d4/d5/d6/d7/d8")?.map((entry) => entry.name)).toEqual(["d9"]);
    // Left to the scanner: a listing with a name that is not UTF-8 (the root holds two), folders at a name that is
    // not, below the depth limit, in skipped folders, or behind a folder symlink.
    expect(recorded("")).toBeUndefined();
    expect(recorded("badscript/scripts")).toBeUndefined();
    expect(recorded("bad-\ufffd")).toBeUndefined();
    expect(recorded("cesu-\ufffd\ufffd\ufffd")).toBeUndefined();
    expect(recorded("d1/d2/d3/d4/d5/d6/d7/d8/d9")).toBeUndefined();
    expect(recorded(".git/hidden")).toBeUndefined();
    expect(recorded("node_modules/dep")).toBeUndefined();
    expect(recorded("dirlink-in")).toBeUndefined();
  });

  it("hands over SKILL.md bytes only for a regular file under 64 KiB, once", () => {
    const prefetch = prefetchOf(root);
    const bytes = (relative: string) => prefetch.skillFile(join(root, relative));
    expect(bytes("under64k")).toEqual(readFileSync(join(root, "under64k", "SKILL.md")));
    expect(bytes("under64k")).toBeUndefined();
    expect(bytes("bom")).toEqual(readFileSync(join(root, "bom", "SKILL.md")));
    for (const relative of ["exact64k", "big", "fifo", "folder-skill", "link-in", "link-out", "plain"])
      expect(bytes(relative), relative).toBeUndefined();
  });

  it("serves another root or depth from a fresh walk, not the one started", () => {
    expect(prefetchOf(join(root, "plain")).entries(join(root, "plain", "beta"))?.length).toBe(2);
    expect(prefetchOf(root, 1).entries(join(root, "plain", "alpha"))).toBeUndefined();
    expect(prefetchOf(root, 1).entries(join(root, "plain"))?.length).toBe(3);
  });

  it("scans a tree without one readdirSync or open of SKILL.md of its own; turned off, it lists each folder", () => {
    prefetchOf(root); // fails when the module is not built
    const clean = join(root, "plain");
    const listings = vi.spyOn(fs, "readdirSync");
    const opens = vi.spyOn(fs, "openSync");
    const native = scanSkillRoot(clean);
    expect([listings.mock.calls.length, opens.mock.calls.length]).toEqual([0, 0]);
    process.env.SKILLGATE_NATIVE = "0";
    const plain = scanSkillRoot(clean);
    expect([listings.mock.calls.length, opens.mock.calls.length]).toEqual([7, 3]);
    expect(native).toEqual(plain);
    expect(native.skills.map((skill) => skill.id)).toEqual(["alpha", "beta", "gamma"]);
  });

  it("gives the same catalog as the JavaScript-only scan on the hostile tree", () => {
    prefetchOf(root);
    const native = scanSkillRoot(root);
    process.env.SKILLGATE_NATIVE = "0";
    expect(native).toEqual(scanSkillRoot(root));
    expect(native.skills.length).toBeGreaterThan(300);
    expect(native.skipped.map((diagnostic) => diagnostic.code)).toContain("DEPTH_LIMIT");
  });

  it("serves worker threads scanning at the same time as the main thread (one module state, shared)", async () => {
    ensureBuilt();
    prefetchOf(root);
    const library = pathToFileURL(join(REPO, "dist", "runtime", "index.js")).href;
    const source = `
      const { parentPort, workerData } = require("node:worker_threads");
      import(${JSON.stringify(library)}).then(({ scanSkillRoot }) => {
        const scans = [];
        for (let round = 0; round < workerData.rounds; round++) scans.push(JSON.stringify(scanSkillRoot(workerData.root)));
        parentPort.postMessage(scans);
      });`;
    const { scanSkillRoot: builtScan } = (await import(library)) as typeof import("../../runtime/index.js");
    const workers = [0, 1].map(
      () =>
        new Promise<string[]>((resolve, reject) => {
          const worker = new Worker(source, { eval: true, workerData: { root, rounds: 8 } });
          worker.once("message", resolve);
          worker.once("error", reject);
        }),
    );
    const mainScans: string[] = [];
    for (let round = 0; round < 8; round++) mainScans.push(JSON.stringify(builtScan(root)));
    const all = [...mainScans, ...(await Promise.all(workers)).flat()];
    process.env.SKILLGATE_NATIVE = "0";
    const expected = JSON.stringify(builtScan(root));
    expect(all).toHaveLength(24);
    for (const scan of all) expect(scan).toBe(expected);
  }, 120_000);
});
