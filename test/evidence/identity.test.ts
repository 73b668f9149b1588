// The workspace identity and the files of the skillgate home (identity.ts): absent is null, unreadable or edited is a stable code naming the file.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readHeadMark } from "../../runtime/evidence/head-mark.js";
import {
  newInitId,
  readHomeFile,
  readIdentity,
  type WorkspaceIdentity,
  writeIdentity,
} from "../../runtime/evidence/identity.js";
import { tempRoot } from "../support/workspace.js";

const root = tempRoot("skillgate-home-file-");
afterAll(() => root.cleanup());

describe("home files", () => {
  it("reads a file, and an absent one is null", async () => {
    writeFileSync(root.path("present.json"), "{}");
    expect(await readHomeFile(root.path("present.json"), "the ledger head")).toBe("{}");
    expect(await readHomeFile(root.path("absent.json"), "the ledger head")).toBeNull();
    expect(await readIdentity(root.path("absent.json"))).toBeNull();
    expect(await readHeadMark(root.path("absent.json"))).toBeNull();
  });

  it.each([
    ["the workspace identity", readIdentity],
    ["the ledger head", readHeadMark],
  ] as const)("%s that cannot be read is FILE_IO_FAILED with its path and the fix", async (what, read) => {
    const dir = join(root.dir, what.replaceAll(" ", "-"));
    mkdirSync(dir);
    await expect(read(dir)).rejects.toMatchObject({
      code: "FILE_IO_FAILED",
      message: `cannot read ${what} ${dir} (EISDIR); check its owner and mode, or point SKILLGATE_HOME at your own skillgate home.`,
    });
  });
});

describe("workspace identity", () => {
  const identity: WorkspaceIdentity = {
    version: 1,
    workspace: "/ws/one",
    initId: newInitId(),
    createdAt: "2026-01-01T00:00:00.000Z",
    publicKey: "cHVibGlj",
    fingerprint: "ed25519:00",
  };

  it("a new init id is 16 random bytes in hex, never the same twice", () => {
    const ids = new Set(Array.from({ length: 50 }, () => newInitId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("is written 0600 in a 0700 folder it creates, and read back as written", async () => {
    const file = root.path("new-home", "workspaces", "id.json");
    await writeIdentity(file, identity);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(root.path("new-home", "workspaces")).mode & 0o777).toBe(0o700);
    expect(await readIdentity(file)).toEqual(identity);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(identity);
  });

  it.each([
    ["not JSON", "{ edited"],
    ["another version", JSON.stringify({ ...identity, version: 2 })],
    ["no init id", JSON.stringify({ ...identity, initId: 7 })],
  ])("edited by hand (%s) is LEDGER_KEY_MISMATCH with the way back", async (_name, text) => {
    const file = root.path(`edited-${_name.replaceAll(" ", "-")}.json`);
    writeFileSync(file, text);
    await expect(readIdentity(file)).rejects.toMatchObject({
      code: "LEDGER_KEY_MISMATCH",
      message: `the workspace identity ${file} is not valid JSON of skillgate; it was edited outside skillgate. Restore it from a backup (nothing in the workspace was changed).`,
    });
  });
});
