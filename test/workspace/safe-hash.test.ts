// Hashing a workspace file (runtime/workspace/safe-hash.ts): streamed sha256 of a regular file inside, with the real
// relative path; escapes, FIFOs (never opened) and files over the cap refused with stable codes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { hashWorkspaceFile } from "../../runtime/workspace/safe-hash.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let ws: string;
const big = Buffer.alloc(2 * 1024 * 1024 + 5, 7);
beforeEach(() => {
  temp = tempRoot("skillgate-safe-hash-", { realpath: true });
  ws = temp.path("ws");
  mkdirSync(temp.path("ws", "dir"), { recursive: true });
  writeFileSync(temp.path("ws", "dir", "big.bin"), big);
  writeFileSync(temp.path("host.txt"), "HOST");
  symlinkSync(temp.path("host.txt"), temp.path("ws", "out-link"));
  symlinkSync("dir/big.bin", temp.path("ws", "in-link"));
  execFileSync("mkfifo", [temp.path("ws", "fifo")]);
});
afterEach(() => temp.cleanup());

async function refusal(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("hashWorkspaceFile", () => {
  it("streams a file larger than one read chunk; through a link inside, reports the real path", async () => {
    const sha256 = createHash("sha256").update(big).digest("hex");
    const direct = await hashWorkspaceFile(ws, "dir/big.bin", { maxBytes: 10 * 1024 * 1024 });
    expect(direct).toMatchObject({ sha256, size: big.length, path: "dir/big.bin" });
    expect(await hashWorkspaceFile(ws, "in-link", { maxBytes: 10 * 1024 * 1024 })).toMatchObject({
      sha256,
      path: "dir/big.bin",
    });
  });

  it.each([
    [
      "out-link",
      {},
      "PATH_OUTSIDE_WORKSPACE",
      "Path 'out-link' is not within the workspace: it resolves to HOST, outside WS.",
    ],
    ["fifo", {}, "NOT_REGULAR_FILE", "Path 'fifo' is a fifo, not a regular file."],
    ["in-link", { follow: false }, "NOT_REGULAR_FILE", "Path 'in-link' is a symlink, not a regular file."],
    ["dir", {}, "NOT_REGULAR_FILE", "Path 'dir' is a directory, not a regular file."],
    [
      "../host.txt",
      {},
      "PATH_OUTSIDE_WORKSPACE",
      "Path '../host.txt' is not within the workspace: it leads outside WS.",
    ],
    [
      "dir/big.bin",
      { maxBytes: 1024 },
      "FILE_TOO_LARGE",
      `File dir/big.bin is ${2 * 1024 * 1024 + 5} bytes, over the 1024-byte limit.`,
    ],
    ["none", {}, "FILE_NOT_FOUND", "Cannot open none: it does not exist."],
  ])("%s %o → %s", async (path, extra, code, message) => {
    const result = await refusal(hashWorkspaceFile(ws, path, { maxBytes: 10 * 1024 * 1024, ...extra }));
    expect(result).toEqual({
      code,
      message: message.replace("HOST", temp.path("host.txt")).replace("WS", ws),
    });
  });

  it("accepts an absolute path only when asked", async () => {
    const absolute = `${ws}/dir/big.bin`;
    expect((await refusal(hashWorkspaceFile(ws, absolute, { maxBytes: 1e8 }))).code).toBe(
      "PATH_OUTSIDE_WORKSPACE",
    );
    expect((await hashWorkspaceFile(ws, absolute, { maxBytes: 1e8, allowAbsolute: true })).size).toBe(
      big.length,
    );
  });
});
