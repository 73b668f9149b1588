// The shared tree walker on real files: symlink loops, odd names, unreadable folders, bounds, skip, depth, order.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WalkEntry, type WalkOptions, walkTree } from "../../runtime/walk/index.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

const repo = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

let temp: TempRoot;
beforeEach(() => {
  temp = tempRoot("sg-walker-walk-", { realpath: true });
});
afterEach(() => temp.cleanup());

function put(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(temp.dir, rel, ".."), { recursive: true });
    writeFileSync(join(temp.dir, rel), text);
  }
}

async function collect(options: WalkOptions = {}, roots: string | string[] = temp.dir) {
  const seen: string[] = [];
  const result = await walkTree(roots, options, (entry: WalkEntry) => {
    seen.push(`${entry.rel} ${entry.kind ?? "?"} ${entry.depth}`);
    return undefined;
  });
  return { seen, result };
}

describe("walkTree", () => {
  it("walks depth-first in code-unit order per folder (a < a/b < a-b), never following symlinks, even in a loop", async () => {
    put({ "a/b": "", "a-b": "", "B/x": "" });
    symlinkSync(".", join(temp.dir, "a", "loop"));
    symlinkSync(temp.dir, join(temp.dir, "up"));
    symlinkSync("a-b", join(temp.dir, "file-link"));
    const { seen, result } = await collect();
    expect(seen).toEqual([
      "B directory 1",
      "B/x file 2",
      "a directory 1",
      "a/b file 2",
      "a/loop symlink 2",
      "a-b file 1",
      "file-link symlink 1",
      "up symlink 1",
    ]);
    expect(result).toEqual({ seen: 8, truncated: false });
  });

  it("keeps a name with a newline as one entry, and its folder is entered", async () => {
    put({ "odd\nname/inner": "", plain: "" });
    const paths: string[] = [];
    await walkTree(temp.dir, {}, (entry) => {
      paths.push(entry.path);
      return undefined;
    });
    expect(paths).toEqual([
      join(temp.dir, "odd\nname"),
      join(temp.dir, "odd\nname", "inner"),
      join(temp.dir, "plain"),
    ]);
  });

  it("stops after maxEntries with truncated, counting skipped entries too, in both orders", async () => {
    put({ "a/1": "", "a/2": "", b: "", c: "" });
    const skip = (entry: WalkEntry) => entry.name === "b";
    expect(await collect({ maxEntries: 3, skip })).toEqual({
      seen: ["a directory 1", "a/1 file 2", "a/2 file 2"],
      result: { seen: 3, truncated: true },
    });
    expect(await collect({ maxEntries: 5, skip })).toEqual({
      seen: ["a directory 1", "a/1 file 2", "a/2 file 2", "c file 1"],
      result: { seen: 5, truncated: false },
    });
    const breadth = await collect({ maxEntries: 4, skip, order: "breadth-first" });
    expect(breadth.result).toEqual({ seen: 4, truncated: true });
    expect(breadth.seen).toEqual(["a directory 1", "c file 1", "a/1 file 2"]);
  });

  it("neither visits nor enters what skip names, and checks it before any lstat", async () => {
    put({ ".git/config": "", "node_modules/x/y": "", "src/a.py": "" });
    const statted: string[] = [];
    const fs = {
      readdir: (path: string) => import("node:fs/promises").then((m) => m.readdir(path)),
      lstat: (path: string) => {
        statted.push(path.slice(temp.dir.length + 1));
        return import("node:fs/promises").then((m) => m.lstat(path));
      },
    };
    const { seen } = await collect({
      fs,
      stat: "all",
      skip: (entry) => entry.name === ".git" || entry.name === "node_modules",
    });
    expect(seen).toEqual(["src directory 1", "src/a.py file 2"]);
    expect(statted).toEqual(["src", "src/a.py"]);
  });

  it("lists folders down to maxDepth and hands deeper ones to onDepthLimit, unlisted", async () => {
    put({ "a/b/c/d": "", "a/top": "" });
    const limited: string[] = [];
    const { seen } = await collect({ maxDepth: 1, onDepthLimit: (entry) => void limited.push(entry.rel) });
    expect(seen).toEqual(["a directory 1", "a/b directory 2", "a/top file 2"]);
    expect(limited).toEqual(["a/b"]);
    const none = await collect({ maxDepth: 0 });
    expect(none.seen).toEqual(["a directory 1"]);
  });

  it("does not enter a folder the visit refuses, and enters the `into` path it names, then runs `after`", async () => {
    put({ "a/x": "", "b/y": "", "elsewhere/z": "" });
    const events: string[] = [];
    await walkTree(temp.dir, {}, (entry) => {
      events.push(entry.rel);
      if (entry.name === "a") return false;
      if (entry.name === "b")
        return { into: join(temp.dir, "elsewhere"), after: () => void events.push("after b") };
      return undefined;
    });
    expect(events).toEqual(["a", "b", "b/z", "after b", "elsewhere", "elsewhere/z"]);
  });

  it("stat 'files' gives regular files their lstat (in parallel when breadth-first) and reports failed ones", async () => {
    put({ "a.txt": "12345", "d/b.txt": "1" });
    const sizes: string[] = [];
    for (const order of ["depth-first", "breadth-first"] as const) {
      await walkTree(temp.dir, { stat: "files", order }, (entry) => {
        sizes.push(`${order} ${entry.rel} ${entry.stats?.size ?? "-"}`);
        return undefined;
      });
    }
    expect(sizes).toEqual([
      "depth-first a.txt 5",
      "depth-first d -",
      "depth-first d/b.txt 1",
      "breadth-first d -",
      "breadth-first a.txt 5",
      "breadth-first d/b.txt 1",
    ]);
  });

  it("throws on an unreadable root by default, or hands it to onUnreadable", async () => {
    const missing = join(temp.dir, "missing");
    await expect(walkTree(missing, {}, () => undefined)).rejects.toMatchObject({ code: "ENOENT" });
    const unreadable: string[] = [];
    const result = await walkTree(
      missing,
      {
        onUnreadable: (dir, rel, error) =>
          void unreadable.push(`${dir} '${rel}' ${(error as { code: string }).code}`),
      },
      () => undefined,
    );
    expect(unreadable).toEqual([`${missing} '' ENOENT`]);
    expect(result).toEqual({ seen: 0, truncated: false });
  });

  it("reports a folder it may not list (a real unprivileged user) and walks on", () => {
    put({ "a/ok": "", "locked/secret": "", "z/ok": "" });
    chmodSync(temp.dir, 0o755);
    chmodSync(join(temp.dir, "locked"), 0o000);
    const script = `
      import { walkTree } from ${JSON.stringify(join(repo, "runtime", "walk", "index.ts"))};
      const lines = [];
      await walkTree(process.argv[1], {
        onUnreadable: (dir, rel, error) => void lines.push("unreadable " + rel + " " + error.code),
      }, (entry) => void lines.push(entry.rel));
      console.log(JSON.stringify(lines));`;
    const uid = process.getuid?.() ?? -1;
    // As root, chmod 000 does not stop a listing: drop to nobody; as another user, the mode alone does.
    const argv =
      uid === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "node"] : ["node"];
    const out = execFileSync(
      argv[0] as string,
      [...argv.slice(1), "--import", "tsx", "--input-type=module", "-e", script, temp.dir],
      {
        cwd: repo,
        encoding: "utf8",
      },
    );
    chmodSync(join(temp.dir, "locked"), 0o755);
    expect(JSON.parse(out)).toEqual(["a", "a/ok", "locked", "unreadable locked EACCES", "z", "z/ok"]);
  });

  it("walks several roots breadth-first, each at level 0, one level at a time", async () => {
    put({ "r1/a/deep": "", "r1/f": "", "r2/g": "" });
    const { seen } = await collect({ order: "breadth-first", compare: null }, [
      join(temp.dir, "r1"),
      join(temp.dir, "r2"),
    ]);
    expect(new Set(seen.slice(0, 3))).toEqual(new Set(["a directory 1", "f file 1", "g file 1"]));
    expect(seen.slice(3)).toEqual(["a/deep file 2"]);
  });
});
