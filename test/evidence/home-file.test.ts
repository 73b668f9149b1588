// Files of the skillgate home (identity, ledger head): absent is null, unreadable is a stable code naming the file.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readHeadMark } from "../../runtime/evidence/head-mark.js";
import { readHomeFile, readIdentity } from "../../runtime/evidence/identity.js";
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
