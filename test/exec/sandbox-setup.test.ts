// runtime/exec/sandbox-setup.ts (root): one bwrap run's host-side set-up: identity and ACLs, read-only git metadata, seccomp and resolver descriptors, planted .git removed.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BwrapPlan } from "../../runtime/exec/bwrap.js";
import { USER_NET_RESOLV_CONF } from "../../runtime/exec/netns.js";
import { prepareSandbox, type SetupInput } from "../../runtime/exec/sandbox-setup.js";
import { seccompProgram } from "../../runtime/exec/seccomp.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

/** A uid of this suite alone, so its grants never meet another suite's. */
const UID = 2_147_200_000 + (process.pid % 100_000);

let temp: TempRoot;
let ws: string;
let skillDir: string;
beforeEach(() => {
  temp = tempRoot("skillgate-sandbox-setup-", { realpath: true });
  ws = temp.path("ws");
  skillDir = join(ws, ".ucagent", "skills", "s");
  mkdirSync(join(skillDir, "scripts"), { recursive: true });
});
afterEach(() => temp.cleanup());

function input(overrides: Partial<SetupInput> = {}): SetupInput {
  return {
    writablePaths: [ws],
    persistentPaths: [],
    sensitivePaths: [],
    sandboxUid: UID,
    network: false,
    firstFd: 5,
    ...overrides,
  };
}

function planBase(): BwrapPlan {
  return {
    bwrap: "bwrap",
    command: ["python3", join(skillDir, "scripts", "a.py")],
    cwd: ws,
    skillDir,
    writablePaths: [ws],
    persistentPaths: [],
    readOnlyPaths: [],
    network: false,
    env: {},
    tmpSizeBytes: 1024,
    sensitivePaths: [],
  };
}

function put(relative: string, content = "x"): string {
  const path = join(ws, relative);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return path;
}

describe("prepareSandbox", () => {
  it("keeps every git folder read-only: .git folders, a worktree's .git file with its gitdir and common folder, a symlink's target", async () => {
    put(".git/HEAD");
    // A worktree of a bare repository: neither its gitdir nor the common folder is named .git.
    put("bare.git/worktrees/wt/commondir", "../..\n");
    put("wt/.git", "gitdir: ../bare.git/worktrees/wt\n");
    put("real-git/HEAD");
    mkdirSync(join(ws, "linked"));
    symlinkSync(join(ws, "real-git"), join(ws, "linked", ".git"));
    mkdirSync(join(ws, "outside-link"));
    symlinkSync(temp.dir, join(ws, "outside-link", ".git"));
    const setup = await prepareSandbox(input(), planBase());
    try {
      expect([...(setup.plan.protectedPaths ?? [])].sort()).toEqual(
        [
          join(ws, ".git"),
          join(ws, "bare.git"),
          join(ws, "bare.git", "worktrees", "wt"),
          join(ws, "real-git"),
          join(ws, "wt", ".git"),
        ].sort(),
      );
    } finally {
      setup.release();
    }
  });

  it("drops root to the sandbox uid, grants it the writable area and hands bwrap the seccomp program first", async () => {
    put("data.txt");
    const setup = await prepareSandbox(input(), planBase());
    try {
      expect(setup.identity).toMatchObject({ uid: UID, dropped: true });
      expect(setup.prefix.slice(0, 6)).toEqual(setup.identity.prefix);
      expect(
        setup.prefix.slice(6, 6 + 3).map((part, index) => (index === 0 ? part.split("/").pop() : part)),
      ).toEqual(["keyctl", "session", "-"]);
      expect(setup.stderrPreamble?.test("Joined session keyring: 123456\n")).toBe(true);
      expect(
        execFileSync("getfacl", ["--omit-header", "--absolute-names", join(ws, "data.txt")], {
          encoding: "utf8",
        }),
      ).toContain(`user:${UID}:rw-`);
      expect(setup.plan.seccompFd).toBe(5);
      expect(setup.plan.resolvConfFd).toBeUndefined();
      expect(setup.fds).toHaveLength(1);
      expect((setup.fds[0] as Buffer).equals(seccompProgram())).toBe(true);
      expect(setup.scan.entries.map((entry) => entry.path)).toContain(join(ws, "data.txt"));
    } finally {
      setup.release();
    }
  });

  it("with a network grant, passes the user-mode network's resolver as the next descriptor", async () => {
    const setup = await prepareSandbox(input({ network: true, firstFd: 3 }), {
      ...planBase(),
      network: true,
    });
    try {
      expect([setup.plan.seccompFd, setup.plan.resolvConfFd]).toEqual([3, 4]);
      expect(String(setup.fds[1])).toBe(USER_NET_RESOLV_CONF);
    } finally {
      setup.release();
    }
  });

  it("removes only the .git entries the run created, and says which", async () => {
    put(".git/HEAD");
    const setup = await prepareSandbox(input(), planBase());
    setup.release();
    put("sub/.git/hooks/post-checkout", "#!/bin/sh\n");
    expect(await setup.removePlantedGit()).toEqual([join(ws, "sub", ".git")]);
    expect(await setup.removePlantedGit()).toEqual([]);
    expect(execFileSync("ls", ["-A", ws], { encoding: "utf8" }).split("\n")).toContain(".git");
  });

  it("refuses a sandbox uid that is not an unprivileged one", async () => {
    await expect(prepareSandbox(input({ sandboxUid: 0 }), planBase())).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(
        /^exec\.sandbox_uid is 0; the sandbox must run as an unprivileged host uid; fix: /,
      ),
    });
  });
});
