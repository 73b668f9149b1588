// runtime/exec/supervise/handshake.ts (root, real bwrap): the sandbox is held before its command, both pids moved into the cgroup and the network attached first.
import { existsSync, readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createPidsCgroup, type PidsCgroup } from "../../../runtime/exec/cgroup.js";
import { findSlirp4netns } from "../../../runtime/exec/netns.js";
import { findExecutable } from "../../../runtime/exec/runner.js";
import { spawnRun } from "../../../runtime/exec/spawn/spawn.js";
import { handshake, holdSandbox } from "../../../runtime/exec/supervise/handshake.js";
import { tempRoot } from "../../support/workspace.js";

const temp = tempRoot("skillgate-handshake-", { realpath: true });
afterAll(() => temp.cleanup());
const BWRAP = findExecutable("bwrap") as string;
let serial = 0;

function sandbox(command: string, options: string[] = []) {
  return spawnRun({
    argv: [
      BWRAP,
      "--unshare-pid",
      "--die-with-parent",
      ...options,
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--bind",
      temp.dir,
      temp.dir,
      "--info-fd",
      "3",
      "--block-fd",
      "4",
      "--",
      "sh",
      "-c",
      command,
    ],
    cwd: temp.dir,
    env: { PATH: "/usr/bin:/bin" },
    cgroup: null,
    handshake: true,
  });
}

function cgroupOf(): PidsCgroup {
  const made = createPidsCgroup(`sg-mirror-handshake-${process.pid}-${serial++}`, 16);
  if (!("cgroup" in made)) throw new Error(`needs root and a pids controller: ${made.reason}`);
  return made.cgroup;
}

function stdout(spawned: ReturnType<typeof spawnRun>): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    (spawned.child.stdout as Readable).on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    (spawned.child.stdout as Readable).once("end", () => resolve(text));
  });
}

describe("holdSandbox", () => {
  it("holds bwrap before its command with both pids in the cgroup; go() lets the command run", async () => {
    const marker = temp.path(`ran-${serial}`);
    const spawned = sandbox(`echo ran > ${marker}; cat /proc/self/cgroup`);
    const output = stdout(spawned);
    const cgroup = cgroupOf();
    try {
      const held = await holdSandbox(spawned.child, cgroup);
      expect(held.innerPid).toBeGreaterThan(0);
      expect(cgroup.members().sort()).toEqual([spawned.child.pid, held.innerPid].sort());
      // Nothing of the command ran yet: bwrap waits on its block fd.
      expect(existsSync(marker)).toBe(false);
      held.go();
      expect(await spawned.exited).toEqual({ code: 0, signal: null });
      expect(readFileSync(marker, "utf8")).toBe("ran\n");
      expect(await output).toContain(`:/skillgate/sg-mirror-handshake-${process.pid}-`);
    } finally {
      cgroup.destroy();
    }
  });

  it("rejects when bwrap exits before it reports the sandbox (a bad option)", async () => {
    const spawned = sandbox("true", ["--no-such-option"]);
    await expect(holdSandbox(spawned.child, null)).rejects.toThrow(
      /^bwrap (exited before the sandbox started|closed its info fd early: )$/,
    );
    expect((await spawned.exited).code).toBe(1);
  });
});

describe("handshake", () => {
  it("without a network resolves with none and starts the command", async () => {
    const spawned = sandbox("echo hello");
    const output = stdout(spawned);
    expect(await handshake(spawned.child, null, undefined)).toBeNull();
    expect(await output).toBe("hello\n");
  });

  it("attaches the user-mode network before the command starts: its very first look sees tap0", async () => {
    const slirp = findSlirp4netns();
    expect(slirp, "slirp4netns is installed on this host").not.toBeNull();
    const spawned = sandbox("cat /proc/net/dev", ["--unshare-net"]);
    const output = stdout(spawned);
    const net = await handshake(spawned.child, null, { slirp4netns: slirp as string, asRoot: true });
    try {
      expect(net).not.toBeNull();
      expect(await output).toMatch(/^\s*tap0:/m);
    } finally {
      net?.stop();
    }
  });
});
