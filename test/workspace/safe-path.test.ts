// Resolving workspace paths (runtime/workspace/safe-path.ts): lexical checks, a descriptor the kernel vouches for (no
// escape through symlinks, FIFOs never opened for reading), errno mapped to stable codes with what to do.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isInside } from "../../runtime/contracts/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import {
  at,
  checkName,
  closeAll,
  ioError,
  kindOf,
  openVerified,
  realRootOf,
  relativeTo,
  reopenForRead,
  resolveLexical,
} from "../../runtime/workspace/safe-path.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let ws: string;
beforeEach(() => {
  temp = tempRoot("skillgate-safe-path-", { realpath: true });
  ws = temp.path("ws");
  mkdirSync(temp.path("ws", "dir"), { recursive: true });
  writeFileSync(temp.path("ws", "dir", "f.txt"), "inside");
  writeFileSync(temp.path("host.txt"), "HOST");
  symlinkSync(temp.path("host.txt"), temp.path("ws", "out-link"));
  symlinkSync("dir/f.txt", temp.path("ws", "in-link"));
  execFileSync("mkfifo", [temp.path("ws", "fifo")]);
});
afterEach(() => temp.cleanup());

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

async function asyncRefusal(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("lexical checks", () => {
  it.each([
    [
      "dir/../../x",
      "PATH_OUTSIDE_WORKSPACE",
      "Path 'dir/../../x' is not within the workspace: it leads outside WS.",
    ],
    ["/etc/passwd", "PATH_OUTSIDE_WORKSPACE", "Path '/etc/passwd' is absolute; give it relative to WS."],
    ["C:\\x", "PATH_OUTSIDE_WORKSPACE", "Path 'C:\\x' is absolute; give it relative to WS."],
    ["a\0b", "INVALID_ARGS", "Path 'a\\0b' contains a NUL byte."],
  ])("resolveLexical(%j) refuses", (path, code, message) => {
    expect(refusal(() => resolveLexical(ws, path))).toEqual({ code, message: message.replace("WS", ws) });
  });

  it("accepts relative paths inside (.. that stays inside included), absolute only when allowed and inside", () => {
    expect(resolveLexical(ws, "dir/../dir/f.txt")).toEqual({
      shown: "dir/../dir/f.txt",
      lexical: `${ws}/dir/f.txt`,
    });
    expect(resolveLexical(ws, `${ws}/dir`, true).lexical).toBe(`${ws}/dir`);
    expect(refusal(() => resolveLexical(ws, temp.path("host.txt"), true)).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
  });

  it("isInside and relativeTo: '..x' is a name inside, '..' is not", () => {
    expect(isInside("/w", "/w")).toBe(true);
    expect(isInside("/w", "/w/..x")).toBe(true);
    expect(isInside("/w", "/w/../x")).toBe(false);
    expect(isInside("/w", "/wx")).toBe(false);
    expect(relativeTo("/w", "/w/a/b")).toBe("a/b");
    expect(relativeTo("/w", "/w")).toBe("");
  });

  it.each(["", ".", "..", "a/b", "a\0"])("checkName(%j) refuses", (name) => {
    expect(refusal(() => checkName(name, "shown"))).toEqual({
      code: "INVALID_ARGS",
      message: "Path 'shown' does not end in a file or folder name.",
    });
  });
});

describe("openVerified", () => {
  it("opens a file and a symlink that stays inside, with the kernel's real path", async () => {
    const realRoot = await realRootOf(ws);
    const file = await openVerified(realRoot, `${ws}/in-link`, "in-link");
    expect(file.real).toBe(`${ws}/dir/f.txt`);
    expect(kindOf(file.stats)).toBe("file");
    const handle = await reopenForRead(file, "in-link");
    expect((await handle.readFile()).toString()).toBe("inside");
    await closeAll(handle, file, file);
  });

  it("refuses a symlink out of the workspace, naming where it resolves", async () => {
    const realRoot = await realRootOf(ws);
    expect(await asyncRefusal(() => openVerified(realRoot, `${ws}/out-link`, "out-link"))).toEqual({
      code: "PATH_OUTSIDE_WORKSPACE",
      message: `Path 'out-link' is not within the workspace: it resolves to ${temp.path("host.txt")}, outside ${ws}.`,
    });
  });

  it("does not follow a symlink when asked not to, and reports a file where a folder was wanted", async () => {
    const realRoot = await realRootOf(ws);
    const link = await openVerified(realRoot, `${ws}/out-link`, "out-link", { follow: false });
    expect(kindOf(link.stats)).toBe("symlink");
    await closeAll(link);
    expect(
      await asyncRefusal(() => openVerified(realRoot, `${ws}/dir/f.txt`, "dir/f.txt", { directory: true })),
    ).toEqual({
      code: "NOT_A_DIRECTORY",
      message: "Path 'dir/f.txt' is not a folder.",
    });
    expect(await asyncRefusal(() => openVerified(realRoot, `${ws}/none`, "none"))).toEqual({
      code: "FILE_NOT_FOUND",
      message: "Cannot open none: it does not exist.",
    });
  });

  it("stats a FIFO without blocking on it", async () => {
    const realRoot = await realRootOf(ws);
    const fifo = await openVerified(realRoot, `${ws}/fifo`, "fifo");
    expect(kindOf(fifo.stats)).toBe("fifo");
    expect(at(fifo, "x").endsWith("/x")).toBe(true);
    await closeAll(fifo);
  });
});

describe("ioError", () => {
  it.each([
    ["ENOENT", "FILE_NOT_FOUND", "Cannot read f: it does not exist."],
    ["ENOTDIR", "FILE_NOT_FOUND", "Cannot read f: it does not exist."],
    [
      "ENOSPC",
      "DISK_FULL",
      "Cannot read f: the disk is full (ENOSPC). Free space on that file system and retry.",
    ],
    [
      "EROFS",
      "PERMISSION_DENIED",
      "Cannot read f: permission denied (EROFS). Check the owner and mode of the file and its folders.",
    ],
    ["ELOOP", "FILE_NOT_FOUND", "Cannot read f: too many symbolic links (ELOOP)."],
    ["EIO", "FILE_IO_FAILED", "Cannot read f: EIO."],
  ])("%s → %s", (errno, code, message) => {
    const error = ioError(Object.assign(new Error("x"), { code: errno }), "read", "f");
    expect({ code: error.code, message: error.message }).toEqual({ code, message });
  });

  it("passes a SkillgateError through unchanged", () => {
    const own = new SkillgateError("INVALID_ARGS", "mine");
    expect(ioError(own, "read", "f")).toBe(own);
  });
});
