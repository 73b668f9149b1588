// runtime/exec/identity.ts (root): the unprivileged uid sandboxed runs use, the ACL grants that let it into the writable area only, and the private run temp folder.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, linkSync, lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isSkillgateError } from "../../runtime/errors.js";
import {
  DEFAULT_SANDBOX_UID,
  grantTmpDir,
  grantTraverse,
  grantWritable,
  privateTmpDir,
  sandboxIdentity,
} from "../../runtime/exec/identity.js";
import { scanWritableArea } from "../../runtime/exec/writable-area.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-identity-", { realpath: true });
afterAll(() => temp.cleanup());

/** A uid of this suite alone (no user has it), so grants never meet another suite's. */
const UID = 2_147_100_000 + (process.pid % 100_000);

function acl(path: string): string[] {
  return execFileSync("getfacl", ["--omit-header", "--absolute-names", path], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(String(UID)));
}

/** Runs `argv` as UID (no groups, no new privileges); returns its exit status. */
function asUid(argv: string[]): number | null {
  return spawnSync("setpriv", [`--reuid=${UID}`, `--regid=${UID}`, "--clear-groups", "--", ...argv], {
    stdio: "ignore",
  }).status;
}

describe("sandboxIdentity", () => {
  it("leaves a normal user as itself: already unprivileged", () => {
    expect(sandboxIdentity(DEFAULT_SANDBOX_UID, 1000)).toEqual({ uid: 1000, prefix: [], dropped: false });
  });

  it("drops root to the sandbox uid through setpriv, without groups or new privileges", () => {
    const identity = sandboxIdentity(UID, 0);
    expect(identity).toEqual({
      uid: UID,
      prefix: [
        expect.stringMatching(/\/setpriv$/),
        `--reuid=${UID}`,
        `--regid=${UID}`,
        "--clear-groups",
        "--no-new-privs",
        "--",
      ],
      dropped: true,
    });
    const id = execFileSync(identity.prefix[0] as string, [...identity.prefix.slice(1), "id"], {
      encoding: "utf8",
    });
    expect(id.trim()).toBe(`uid=${UID} gid=${UID} groups=${UID}`);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses exec.sandbox_uid %s for root", (uid) => {
    let caught: unknown;
    try {
      sandboxIdentity(uid, 0);
    } catch (error) {
      caught = error;
    }
    expect(isSkillgateError(caught) && caught.code).toBe("CONFIG_INVALID");
    expect((caught as Error).message).toBe(
      `exec.sandbox_uid is ${uid}; the sandbox must run as an unprivileged host uid; fix: set exec.sandbox_uid to a positive uid no real user has (default ${DEFAULT_SANDBOX_UID})`,
    );
  });
});

describe("grantWritable and grantTraverse", () => {
  it("lets the sandbox uid read and write the area, and what is created there later, but never through a hard link", async () => {
    const area = join(temp.dir, "area");
    mkdirSync(join(area, "sub"), { recursive: true });
    writeFileSync(join(area, "sub", "data.txt"), "data");
    const outside = join(temp.dir, "outside.txt");
    writeFileSync(outside, "host secret");
    chmodSync(outside, 0o600);
    linkSync(outside, join(area, "hard-link.txt"));
    symlinkSync(outside, join(area, "sym-link.txt"));
    const scan = await scanWritableArea([area], { skip: () => false });
    await grantWritable(scan, UID, 0);
    await grantTraverse([area], UID, [area]);
    expect(acl(join(area, "sub", "data.txt"))).toEqual([`user:${UID}:rw-`]);
    expect(acl(join(area, "sub"))).toEqual([`user:${UID}:rwx`, `default:user:${UID}:rwx`]);
    expect(acl(outside)).toEqual([]);
    expect(asUid(["cat", join(area, "sub", "data.txt")])).toBe(0);
    expect(asUid(["sh", "-c", `echo new > ${join(area, "sub", "new.txt")}`])).toBe(0);
    expect(asUid(["cat", join(area, "hard-link.txt")])).not.toBe(0);
    expect(asUid(["cat", join(area, "sym-link.txt")])).not.toBe(0);
    // The owner keeps full use of what the run created (default ACL for the owner too).
    expect(lstatSync(join(area, "sub", "new.txt")).uid).toBe(UID);
    rmSync(join(area, "sub", "new.txt"));
  });

  it("gives search only on the ancestors of a read-only source, and read on the source itself", async () => {
    const parent = join(temp.dir, "private-parent");
    const source = join(parent, "skill");
    mkdirSync(source, { recursive: true });
    writeFileSync(join(source, "SKILL.md"), "x");
    writeFileSync(join(parent, "neighbour.txt"), "not for the sandbox");
    chmodSync(parent, 0o700);
    chmodSync(source, 0o700);
    expect(asUid(["ls", source])).not.toBe(0);
    await grantTraverse([source], UID);
    expect(acl(parent)).toEqual([`user:${UID}:--x`]);
    expect(acl(source)).toEqual([`user:${UID}:r-x`]);
    expect(asUid(["ls", source])).toBe(0);
    expect(asUid(["ls", parent])).not.toBe(0);
  });

  it("grants again a source removed and made again at the same path (its ACL went with the old folder)", async () => {
    const parent = join(temp.dir, "remade-parent");
    const source = join(parent, "skill");
    const make = (): void => {
      mkdirSync(source, { recursive: true });
      writeFileSync(join(source, "SKILL.md"), "x");
      chmodSync(parent, 0o700);
      chmodSync(source, 0o700);
    };
    make();
    await grantTraverse([source], UID);
    expect(asUid(["cat", join(source, "SKILL.md")])).toBe(0);
    rmSync(parent, { recursive: true });
    make();
    expect(asUid(["cat", join(source, "SKILL.md")])).not.toBe(0);
    await grantTraverse([source], UID);
    expect(acl(parent)).toEqual([`user:${UID}:--x`]);
    expect(asUid(["cat", join(source, "SKILL.md")])).toBe(0);
  });

  it("grants the run temp folder to the sandbox uid, its parent for search only", async () => {
    const dir = await privateTmpDir("/ws/grant", join(temp.dir));
    await grantTmpDir(dir, UID);
    expect(acl(join(dir, ".."))).toEqual([`user:${UID}:--x`]);
    expect(acl(dir)).toEqual([`user:${UID}:rwx`, `default:user:${UID}:rwx`]);
    expect(asUid(["sh", "-c", `echo x > ${join(dir, "t")}`])).toBe(0);
    expect(asUid(["ls", join(dir, "..")])).not.toBe(0);
  });
});

describe("privateTmpDir", () => {
  const uid = process.getuid?.() ?? 0;
  it("is per user and per workspace, mode 0700 at both levels", async () => {
    const base = join(temp.dir, "tmp-base");
    mkdirSync(base);
    const a = await privateTmpDir("/ws/a", base);
    const b = await privateTmpDir("/ws/b", base);
    expect(a).not.toBe(b);
    expect(a.startsWith(join(base, `skillgate-${uid}`))).toBe(true);
    for (const dir of [join(base, `skillgate-${uid}`), a]) {
      expect(lstatSync(dir).mode & 0o777).toBe(0o700);
      expect(lstatSync(dir).uid).toBe(uid);
    }
    expect(await privateTmpDir("/ws/a", base)).toBe(a);
  });

  it("refuses a planted symlink and tightens a folder others could enter", async () => {
    const base = join(temp.dir, "tmp-planted");
    mkdirSync(join(base, "elsewhere"), { recursive: true });
    symlinkSync(join(base, "elsewhere"), join(base, `skillgate-${uid}`));
    await expect(privateTmpDir("/ws/a", base)).rejects.toThrow(
      `the run temp folder ${join(base, `skillgate-${uid}`)} is a symlink, expected a folder of uid ${uid} that others cannot enter (mode 700); fix: remove it (someone else may have planted it) and retry`,
    );
    rmSync(join(base, `skillgate-${uid}`));
    mkdirSync(join(base, `skillgate-${uid}`), { mode: 0o777 });
    chmodSync(join(base, `skillgate-${uid}`), 0o777);
    await privateTmpDir("/ws/a", base);
    expect(lstatSync(join(base, `skillgate-${uid}`)).mode & 0o007).toBe(0);
  });
});
