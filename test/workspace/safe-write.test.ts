// The one safe way to change workspace files (runtime/workspace/safe-write.ts): atomic writes, mkdir/remove/copy/move
// through verified parents and the allowed-folders policy, every refusal on a real hostile tree; writeFileAtomic for state.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  copyWorkspaceFile,
  mkdirWorkspace,
  moveWorkspacePath,
  removeWorkspacePath,
  writeAllowed,
  writeFileAtomic,
  writeWorkspaceFile,
} from "../../runtime/workspace/safe-write.js";
import { tempDir } from "./helpers.js";
import { refusalOf as failure, useHostileTree } from "./hostile-tree.js";

const tree = useHostileTree();
let ws: string;
let host: string;
const ALL = { allow: ["."] };
beforeEach(() => {
  ({ ws, host } = tree);
});

describe("writes", () => {
  it("writes atomically, keeps an existing file's mode, leaves no temp file", async () => {
    await writeWorkspaceFile(ws, "dut/a.txt", "new\n", { policy: ALL });
    expect(readFileSync(join(ws, "dut/a.txt"), "utf8")).toBe("new\n");
    expect(readdirSync(join(ws, "dut")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    const created = await writeWorkspaceFile(ws, "out/deep/r.md", "# r\n", {
      policy: ALL,
      createParents: true,
    });
    expect(created).toEqual({ path: "out/deep/r.md", size: 4, created: true });
    expect(statSync(join(ws, "out/deep/r.md")).mode & 0o777).toBe(0o644);
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    await writeWorkspaceFile(ws, "dut/out-link", "mine\n", { policy: ALL });
    expect(readFileSync(join(host, "secret.txt"), "utf8")).toBe("HOST-SECRET\n");
    expect(lstatSync(join(ws, "dut/out-link")).isFile()).toBe(true);
  });

  it("refuses escaping parents, denied folders and policy misses", async () => {
    const cases: [string, string, { allow: string[]; deny?: string[] }][] = [
      ["dut/out-dir/new.txt", "PATH_OUTSIDE_WORKSPACE", ALL],
      ["../host/new.txt", "PATH_OUTSIDE_WORKSPACE", ALL],
      [".ucagent/skillgate/ledger.jsonl", "WRITE_NOT_ALLOWED", ALL],
      ["dut/a.txt", "WRITE_NOT_ALLOWED", { allow: ["out"] }],
      ["dut/sub/x", "WRITE_NOT_ALLOWED", { allow: ["dut"], deny: ["dut/sub"] }],
      ["dut/sub", "NOT_REGULAR_FILE", ALL],
      ["nofolder/x.txt", "FILE_NOT_FOUND", ALL],
    ];
    mkdirSync(join(ws, ".ucagent", "skillgate"), { recursive: true });
    for (const [path, code, policy] of cases) {
      const got = await failure(writeWorkspaceFile(ws, path, "x", { policy }));
      expect({ path, code: got.code }).toEqual({ path, code });
    }
    expect(readdirSync(host)).toEqual(["secret.txt"]);
    expect(writeAllowed({ allow: ["./out/"] }, "out/a")).toBe(true);
    expect(writeAllowed({ allow: ["out"] }, "outside/a")).toBe(false);
  });

  it("the policy is checked on the real path: a symlink inside to a denied folder does not help", async () => {
    symlinkSync("sub", join(ws, "dut", "alias"));
    const got = await failure(
      writeWorkspaceFile(ws, "dut/alias/x.txt", "x", { policy: { allow: ["dut"], deny: ["dut/sub"] } }),
    );
    expect(got).toMatchObject({ code: "WRITE_NOT_ALLOWED" });
    expect(got.message).toContain("(dut/sub/x.txt)");
  });

  it("overwrite false refuses an existing file", async () => {
    expect(
      (await failure(writeWorkspaceFile(ws, "dut/a.txt", "x", { policy: ALL, overwrite: false }))).code,
    ).toBe("FILE_EXISTS");
    await writeWorkspaceFile(ws, "dut/fresh.txt", "x", { policy: ALL, overwrite: false });
    expect(readFileSync(join(ws, "dut/fresh.txt"), "utf8")).toBe("x");
  });
});

describe("mkdir, remove, copy, move", () => {
  it("mkdir creates parents inside only", async () => {
    expect(await mkdirWorkspace(ws, "out/a/b", { policy: ALL, recursive: true })).toEqual({
      path: "out/a/b",
      created: true,
    });
    expect(await mkdirWorkspace(ws, "out/a/b", { policy: ALL })).toEqual({ path: "out/a/b", created: false });
    expect((await failure(mkdirWorkspace(ws, "dut/out-dir/z", { policy: ALL, recursive: true }))).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
  });

  it("remove deletes a symlink, not its target, and a tree without following links in it", async () => {
    await removeWorkspacePath(ws, "dut/out-link", { policy: ALL });
    expect(existsSync(join(host, "secret.txt"))).toBe(true);
    symlinkSync(host, join(ws, "dut", "sub", "link-to-host"));
    expect((await failure(removeWorkspacePath(ws, "dut/sub", { policy: ALL }))).code).toBe("INVALID_ARGS");
    expect(await removeWorkspacePath(ws, "dut/sub", { policy: ALL, recursive: true })).toEqual({
      path: "dut/sub",
      removed: 3,
    });
    expect(readdirSync(host)).toEqual(["secret.txt"]);
    expect((await failure(removeWorkspacePath(ws, ".", { policy: ALL, recursive: true }))).code).toBe(
      "INVALID_ARGS",
    );
  });

  it("copy reads safely and move checks both ends", async () => {
    await copyWorkspaceFile(ws, "dut/a.txt", "out-copy.txt", { policy: ALL });
    expect(readFileSync(join(ws, "out-copy.txt"), "utf8")).toBe("one\ntwo\n");
    expect((await failure(copyWorkspaceFile(ws, "dut/out-link", "leak.txt", { policy: ALL }))).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    expect(await moveWorkspacePath(ws, "out-copy.txt", "dut/moved.txt", { policy: ALL })).toEqual({
      from: "out-copy.txt",
      to: "dut/moved.txt",
    });
    expect((await failure(moveWorkspacePath(ws, "dut/moved.txt", "dut/a.txt", { policy: ALL }))).code).toBe(
      "FILE_EXISTS",
    );
    expect(
      (await failure(moveWorkspacePath(ws, "dut/moved.txt", "x.txt", { policy: { allow: ["out"] } }))).code,
    ).toBe("WRITE_NOT_ALLOWED");
    expect(
      (await failure(moveWorkspacePath(ws, "dut/moved.txt", "dut/out-dir/x", { policy: ALL }))).code,
    ).toBe("PATH_OUTSIDE_WORKSPACE");
  });
});

describe("writeFileAtomic", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir("skillgate-atomic-");
  });
  afterEach(() => tmp.cleanup());

  it("creates, replaces and leaves no temp file behind", async () => {
    const file = join(tmp.dir, "state.json");
    await writeFileAtomic(file, "one");
    await writeFileAtomic(file, Buffer.from("two"));
    expect(readFileSync(file, "utf8")).toBe("two");
    expect(readdirSync(tmp.dir)).toEqual(["state.json"]);
  });

  it("applies the requested mode", async () => {
    const file = join(tmp.dir, "key");
    await writeFileAtomic(file, "secret", { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("fails without touching the target when the folder is missing", async () => {
    const file = join(tmp.dir, "missing", "f");
    await expect(writeFileAtomic(file, "x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
      message: `Cannot write ${file}: it does not exist.`,
      details: { errno: "ENOENT" },
    });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it("forces the requested mode on a replaced file (a 0o644 key becomes 0o600)", async () => {
    const file = join(tmp.dir, "key");
    await writeFileAtomic(file, "old", { mode: 0o644 });
    await writeFileAtomic(file, "new", { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    const outside = join(tmp.dir, "outside.txt");
    writeFileSync(outside, "keep");
    const file = join(tmp.dir, "state.json");
    symlinkSync(outside, file);
    await writeFileAtomic(file, "new");
    expect(readFileSync(outside, "utf8")).toBe("keep");
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("new");
  });
});
