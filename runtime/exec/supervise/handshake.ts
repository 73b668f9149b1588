// bwrap hand-shake: wait for its sandbox child, move both into the cgroup, attach the network, then let it exec the script.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { PidsCgroup } from "../cgroup.js";
import { startUserNet, type UserNet } from "../netns.js";
import type { RunChild } from "../spawn/spawn.js";

export interface UserNetRequest {
  slirp4netns: string;
  asRoot: boolean;
}

// Why hand-written: no library moves bwrap's sandbox child into a cgroup before it execs; overlapping that move with bwrap's start-up costs +4.6 ms at level 2 vs 16.5 ms for a lone move (docs/performance.md).
/** Resolves with the user-mode network (or null) once the script may start; rejects when the sandbox failed. */
export async function handshake(
  child: RunChild,
  cgroup: PidsCgroup | null,
  userNet: UserNetRequest | undefined,
  /** The caller's checks, already running: false leaves the script unreleased (the caller kills the sandbox). */
  gate?: Promise<boolean>,
): Promise<UserNet | null> {
  const held = await holdSandbox(child, cgroup);
  if (gate !== undefined && !(await gate)) throw new Error("the run was withdrawn before its script started");
  const net = userNet ? await startUserNet(userNet.slirp4netns, held.innerPid, userNet.asRoot) : null;
  held.go();
  return net;
}

export interface HeldSandbox {
  /** bwrap's sandbox child (pid 1 of the sandbox), already in the cgroup. */
  innerPid: number;
  /** Lets bwrap exec the command (once). */
  go(): void;
}

/** The hand-shake up to the point where bwrap waits on its block fd: both pids are in the cgroup, nothing of the command ran. */
export async function holdSandbox(child: RunChild, cgroup: PidsCgroup | null): Promise<HeldSandbox> {
  const pid = child.pid as number;
  // A cgroup move waits for an RCU grace period (~10 ms on cgroup v1, longer under load). Started now, off the
  // main thread, that wait overlaps bwrap building the sandbox; the hand-shake still makes sure of both pids.
  const outerMoved =
    cgroup === null
      ? Promise.resolve(true)
      : writeFile(join(cgroup.dir, "cgroup.procs"), String(pid)).then(
          () => true,
          () => false,
        );
  const info = child.stdio[3] as Readable;
  const block = child.stdio[4] as Writable;
  // Both ends are socket pairs; bwrap closing its side must not become an unhandled 'error'.
  info.on("error", () => undefined);
  block.on("error", () => undefined);
  const text = await new Promise<string>((resolve, reject) => {
    let collected = "";
    const onData = (chunk: Buffer) => {
      collected += chunk.toString("utf8");
      if (collected.trimEnd().endsWith("}")) {
        info.off("data", onData);
        resolve(collected);
      }
    };
    info.on("data", onData);
    info.once("close", () => reject(new Error(`bwrap closed its info fd early: ${collected}`)));
    child.once("exit", () => reject(new Error("bwrap exited before the sandbox started")));
  });
  const innerPid = (JSON.parse(text) as { "child-pid"?: number })["child-pid"];
  if (!(await outerMoved)) await cgroup?.move(pid);
  if (typeof innerPid !== "number") throw new Error(`bwrap reported no child pid: ${text}`);
  // Off the main thread too: the event loop serves other calls during the grace period.
  await cgroup?.move(innerPid);
  return {
    innerPid,
    go() {
      block.end("go");
      info.destroy();
    },
  };
}
