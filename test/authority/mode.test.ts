// Authority mode's rules as pure table tests: who may be the authority, protected hard links, groups, the state folder check.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkIdentity,
  checkProtectedHardlinks,
  type Principal,
  resolveGroup,
  verifyStateFolder,
} from "../../runtime/authority/mode.js";
import { SkillgateError } from "../../runtime/errors.js";
import { tempRoot } from "../support/workspace.js";

const WS = "/home/alice/ws";
const authority: Principal = { uid: 990, gid: 990, user: "skillgate" };
const temp = tempRoot("sg-auth-mode-");
const base = temp.dir;
afterAll(() => temp.cleanup());

function refusal(run: () => unknown): { code: string; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof SkillgateError)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe("checkIdentity", () => {
  const hint = "docs/authority.md shows how to create the authority user";
  it.each([
    {
      name: "a dedicated user serving another user's workspace",
      self: authority,
      ownerUid: 1000,
      ownerGroups: [1000, 27],
      sameUserOk: false,
      expected: null,
    },
    {
      name: "root",
      self: { uid: 0, gid: 0, user: "root" },
      ownerUid: 1000,
      ownerGroups: [1000],
      sameUserOk: true,
      expected: {
        code: "AUTHORITY_REFUSED",
        message: `serve --authority runs as root; it must run as a dedicated unprivileged user that holds only the signing key and the state folder; fix: run it as that user (e.g. sudo -u skillgate skillgate serve --authority --workspace ${WS}); ${hint}`,
      },
    },
    {
      name: "the workspace owner",
      self: { uid: 1000, gid: 1000, user: "alice" },
      ownerUid: 1000,
      ownerGroups: null,
      sameUserOk: false,
      expected: {
        code: "AUTHORITY_REFUSED",
        message: `serve --authority runs as alice (uid 1000), the owner of the workspace ${WS}: an agent running as that user could read the signing key and rewrite the state, so nothing would be enforced; fix: run it as a dedicated user (${hint}), or pass --same-user-ok for tests only`,
      },
    },
    {
      name: "the workspace owner with --same-user-ok",
      self: { uid: 1000, gid: 1000, user: "alice" },
      ownerUid: 1000,
      ownerGroups: null,
      sameUserOk: true,
      expected: null,
    },
    {
      name: "an authority whose own group the owner is in",
      self: authority,
      ownerUid: 1000,
      ownerGroups: [1000, 990],
      sameUserOk: false,
      expected: {
        code: "AUTHORITY_REFUSED",
        message:
          "the workspace owner (uid 1000) is a member of group 990, the authority's own group, so it could write the state folder; fix: give the authority user a group of its own (useradd --user-group) that the agent's user is not in",
      },
    },
  ])("$name", ({ self, ownerUid, ownerGroups, sameUserOk, expected }) => {
    expect(refusal(() => checkIdentity({ self, workspace: WS, ownerUid, ownerGroups, sameUserOk }))).toEqual(
      expected,
    );
  });
});

describe("checkProtectedHardlinks", () => {
  it("refuses 0 and accepts 1, an unreadable setting, or another platform", () => {
    expect(refusal(() => checkProtectedHardlinks(() => "0\n", "linux"))).toEqual({
      code: "AUTHORITY_REFUSED",
      message:
        "fs.protected_hardlinks is 0: the agent's user could hard-link the authority's files (its signing key) into the workspace and read them through the tools; fix: sysctl -w fs.protected_hardlinks=1 (and persist it in /etc/sysctl.d)",
    });
    expect(refusal(() => checkProtectedHardlinks(() => "1\n", "linux"))).toBeNull();
    expect(
      refusal(() =>
        checkProtectedHardlinks(() => {
          throw new Error("EACCES");
        }, "linux"),
      ),
    ).toBeNull();
    expect(refusal(() => checkProtectedHardlinks(() => "0\n", "darwin"))).toBeNull();
  });
});

describe("resolveGroup", () => {
  it("takes a gid, a name from the group file, and names the file when the group is unknown", () => {
    const file = join(base, "group");
    writeFileSync(file, "root:x:0:\nalice:x:1000:skillgate\n");
    expect(resolveGroup("1234", file)).toBe(1234);
    expect(resolveGroup("alice", file)).toBe(1000);
    expect(refusal(() => resolveGroup("nobody-here", file))).toEqual({
      code: "USAGE",
      message: `--socket-group nobody-here: no such group in ${file}; fix: give an existing group name or a numeric gid`,
    });
  });
});

describe("verifyStateFolder", () => {
  const me: Principal = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, user: "me" };
  it("accepts the authority's own 0755 folder; refuses a writable one, a link, a file and a missing one", async () => {
    const good = join(base, "good");
    mkdirSync(good, { mode: 0o755 });
    await chmod(good, 0o755);
    await expect(verifyStateFolder({ skillgateDir: good }, me)).resolves.toBeUndefined();

    const writable = join(base, "writable");
    mkdirSync(writable);
    await chmod(writable, 0o775);
    await expect(verifyStateFolder({ skillgateDir: writable }, me)).rejects.toMatchObject({
      code: "AUTHORITY_STATE_FOREIGN",
      message: `state folder ${writable} is writable by its group or others (mode 775); fix: chmod 0755 ${writable} as the authority user`,
    });

    const link = join(base, "link");
    symlinkSync(good, link);
    await expect(verifyStateFolder({ skillgateDir: link }, me)).rejects.toMatchObject({
      message: `state folder ${link} is not a folder (replaced by a link or file); fix: restore the authority's folder`,
    });

    const missing = join(base, "missing");
    await expect(verifyStateFolder({ skillgateDir: missing }, me)).rejects.toMatchObject({
      message: `state folder ${missing} cannot be inspected (ENOENT); it was moved or removed while the authority ran; fix: restore it, or restart the authority (which creates a new one and records it)`,
    });

    const other = { ...me, uid: me.uid + 1, user: "someone" };
    await expect(verifyStateFolder({ skillgateDir: good }, other)).rejects.toMatchObject({
      message: expect.stringMatching(
        new RegExp(
          `^state folder ${good} is owned by uid ${me.uid}, not by the authority someone \\(uid ${other.uid}\\); fix: if this workspace was used before authority mode, move the old folder aside`,
        ),
      ),
    });
  });
});
