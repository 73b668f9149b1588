// The safe workspace-file reads (runtime/workspace/safe-file.ts): read, stat and list, and every refusal, on real files
// (writes: safe-write.test.ts).
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  listWorkspaceDir,
  readWorkspaceFile,
  readWorkspaceText,
  statWorkspacePath,
  statWorkspacePathIfExists,
} from "../../runtime/workspace/safe-file.js";
import { refusalOf as failure, useHostileTree } from "./hostile-tree.js";

const tree = useHostileTree();
let ws: string;
let host: string;
beforeEach(() => {
  ({ ws, host } = tree);
});

describe("reads", () => {
  it("returns bytes, their sha256 and the real relative path; follows symlinks that stay inside", async () => {
    const read = await readWorkspaceFile(ws, "dut/in-link");
    expect(read.bytes.toString()).toBe("one\ntwo\n");
    expect(read.sha256).toBe(createHash("sha256").update("one\ntwo\n").digest("hex"));
    expect(read.path).toBe("dut/a.txt");
    const text = await readWorkspaceText(ws, "dut/a.txt");
    expect(text.lines).toEqual(["one\n", "two\n"]);
  });

  it("refuses every escape and every non-regular file with a stable code", async () => {
    const cases: [string, string, string][] = [
      [
        "/etc/hostname",
        "PATH_OUTSIDE_WORKSPACE",
        `Path '/etc/hostname' is absolute; give it relative to ${ws}.`,
      ],
      [
        "dut/../../host/secret.txt",
        "PATH_OUTSIDE_WORKSPACE",
        `Path 'dut/../../host/secret.txt' is not within the workspace: it leads outside ${ws}.`,
      ],
      [
        "dut/out-link",
        "PATH_OUTSIDE_WORKSPACE",
        `Path 'dut/out-link' is not within the workspace: it resolves to ${join(host, "secret.txt")}, outside ${ws}.`,
      ],
      [
        "dut/out-dir/secret.txt",
        "PATH_OUTSIDE_WORKSPACE",
        `Path 'dut/out-dir/secret.txt' is not within the workspace: it resolves to ${join(host, "secret.txt")}, outside ${ws}.`,
      ],
      ["dut/fifo", "NOT_REGULAR_FILE", "Path 'dut/fifo' is a fifo, not a regular file."],
      [
        "dut/zero",
        "PATH_OUTSIDE_WORKSPACE",
        `Path 'dut/zero' is not within the workspace: it resolves to /dev/zero, outside ${ws}.`,
      ],
      ["dut/sub", "NOT_REGULAR_FILE", "Path 'dut/sub' is a folder, not a regular file."],
      ["dut/missing", "FILE_NOT_FOUND", "Cannot open dut/missing: it does not exist."],
      ["dut/a.txt/x", "FILE_NOT_FOUND", "Cannot open dut/a.txt/x: it does not exist."],
    ];
    for (const [path, code, message] of cases) {
      const got = await failure(readWorkspaceFile(ws, path));
      expect({ path, code: got.code, message: got.message }).toEqual({ path, code, message });
    }
  });

  it("accepts an absolute path only when asked and only inside the workspace", async () => {
    expect((await readWorkspaceFile(ws, join(ws, "dut/a.txt"), { allowAbsolute: true })).size).toBe(8);
    expect(
      (await failure(readWorkspaceFile(ws, join(host, "secret.txt"), { allowAbsolute: true }))).code,
    ).toBe("PATH_OUTSIDE_WORKSPACE");
  });

  it("caps size before reading and refuses non-UTF-8 text", async () => {
    expect(await failure(readWorkspaceFile(ws, "dut/a.txt", { maxBytes: 7 }))).toMatchObject({
      code: "FILE_TOO_LARGE",
      message: "File dut/a.txt is 8 bytes, over the 7-byte limit. Read a smaller file.",
    });
    writeFileSync(join(ws, "dut", "bin"), Buffer.from([0x61, 0, 0x62]));
    expect((await failure(readWorkspaceText(ws, "dut/bin"))).code).toBe("NOT_TEXT");
  });
});

describe("stat and list", () => {
  it("stat reports the entry itself unless asked to follow", async () => {
    expect((await statWorkspacePath(ws, "dut/in-link")).kind).toBe("symlink");
    expect((await statWorkspacePath(ws, "dut/in-link", { follow: true })).kind).toBe("file");
    expect((await statWorkspacePath(ws, "dut/fifo")).kind).toBe("fifo");
    expect((await failure(statWorkspacePath(ws, "dut/out-link", { follow: true }))).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    expect(await statWorkspacePathIfExists(ws, "dut/nothing")).toBeNull();
  });

  it("lists recursively without entering symlinked folders, with a cap", async () => {
    const listed = await listWorkspaceDir(ws, "dut", { recursive: true });
    expect(listed.entries.map((e) => `${e.path}:${e.kind}`)).toEqual([
      "a.txt:file",
      "fifo:fifo",
      "in-link:symlink",
      "out-dir:symlink",
      "out-link:symlink",
      "sub:directory",
      "sub/b.txt:file",
      "zero:symlink",
    ]);
    expect(await listWorkspaceDir(ws, "dut", { maxEntries: 2 })).toMatchObject({ truncated: true });
    expect((await failure(listWorkspaceDir(ws, "dut/out-dir"))).code).toBe("PATH_OUTSIDE_WORKSPACE");
    expect((await failure(listWorkspaceDir(ws, "dut/a.txt"))).code).toBe("NOT_A_DIRECTORY");
  });
});
