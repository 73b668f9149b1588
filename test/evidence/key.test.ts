// The master secret and the keys derived from it (key.ts): created once 0600 even under a race, refused when edited, one key per workspace and init.
import { execFile } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { deriveSigner, ledgerKeyFile, loadMasterKey, workspaceKey } from "../../runtime/evidence/index.js";
import { tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";

const run = promisify(execFile);
const CHILD = resolve(import.meta.dirname, "key-child.ts");
const root = tempRoot("skillgate-key-");
afterAll(() => root.cleanup());

describe("loadMasterKey", () => {
  it("creates 32 random bytes as 64 hex characters in a 0600 file of a 0700 home, then reads the same key back", async () => {
    const home = root.path("first");
    const key = await loadMasterKey(home);
    expect(key).toHaveLength(32);
    const file = ledgerKeyFile(home);
    expect(file).toBe(join(home, "ledger.key"));
    expect(readFileSync(file, "utf8")).toBe(`${key.toString("hex")}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect((await loadMasterKey(home)).equals(key)).toBe(true);
    expect((await loadMasterKey(root.path("second"))).equals(key)).toBe(false);
  });

  it("5 processes creating the key of one new home at once, twice over, all end up with the one key on disk", async () => {
    for (let round = 0; round < 2; round++) {
      const home = root.path(`race-${round}`);
      const outs = await Promise.all(
        Array.from({ length: 5 }, () =>
          run(process.execPath, ["--import", "tsx", CHILD, home], { cwd: REPO_ROOT, timeout: 60_000 }),
        ),
      );
      const onDisk = readFileSync(ledgerKeyFile(home), "utf8");
      expect(onDisk).toMatch(/^[0-9a-f]{64}\n$/);
      expect(outs.map((o) => o.stdout)).toEqual(Array(5).fill(onDisk));
    }
  }, 240_000);

  it.each([
    [
      "not hex",
      "zz".repeat(32),
      "ledger key <FILE> is not 64 hex characters; delete it so skillgate creates a new one (recorded evidence will have to be collected again)",
    ],
    [
      "too short",
      "ab".repeat(31),
      "ledger key <FILE> is not 64 hex characters; delete it so skillgate creates a new one (recorded evidence will have to be collected again)",
    ],
    [
      "empty (never replaced: another process may be writing it)",
      "",
      "ledger key <FILE> is empty or not 64 hex characters; delete it so skillgate creates a new one (recorded evidence will have to be collected again)",
    ],
  ])("a key file that is %s is LEDGER_TAMPERED and left as it is", async (name, text, message) => {
    const home = root.path(`bad-${name.split(" ")[0]}`);
    await loadMasterKey(home);
    const file = ledgerKeyFile(home);
    writeFileSync(file, text);
    await expect(loadMasterKey(home)).rejects.toMatchObject({
      code: "LEDGER_TAMPERED",
      message: message.replace("<FILE>", file),
    });
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});

describe("derived keys", () => {
  const master = Buffer.alloc(32, 9);

  it("deriveSigner is deterministic and differs by master, workspace path and init id", () => {
    const key = deriveSigner(master, "/ws", "init-1").publicKey;
    expect(deriveSigner(master, "/ws", "init-1").publicKey).toBe(key);
    const others = [
      deriveSigner(Buffer.alloc(32, 8), "/ws", "init-1"),
      deriveSigner(master, "/ws2", "init-1"),
      deriveSigner(master, "/ws", "init-2"),
      // The separator keeps "/ws" + "1init" apart from "/ws1" + "init".
      deriveSigner(master, "/ws1", "init"),
      deriveSigner(master, "/ws", "1init"),
    ].map((s) => s.publicKey);
    expect(new Set([key, ...others]).size).toBe(6);
  });

  it("workspaceKey is 32 bytes, one per workspace path", () => {
    expect(workspaceKey(master, "/ws")).toHaveLength(32);
    expect(workspaceKey(master, "/ws").equals(workspaceKey(master, "/ws"))).toBe(true);
    expect(workspaceKey(master, "/ws").equals(workspaceKey(master, "/ws2"))).toBe(false);
  });
});
