// runtime/exec/netns.ts (root, real slirp4netns): user-mode networking attached to a sandbox's own network namespace, and its failures.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { findSlirp4netns, startUserNet, USER_NET_RESOLV_CONF } from "../../runtime/exec/netns.js";
import { findExecutable } from "../../runtime/exec/runner.js";
import { until } from "../support/poll.js";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A bwrap sandbox with a network namespace of its own (loopback up), running `sleep`; resolves with its pid. */
async function sandboxWithOwnNetwork(): Promise<number> {
  const bwrap = findExecutable("bwrap");
  if (bwrap === null) throw new Error("bwrap is not on PATH; this host needs bubblewrap");
  const child = spawn(
    bwrap,
    [
      "--unshare-net",
      "--die-with-parent",
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--info-fd",
      "3",
      "--",
      "sleep",
      "30",
    ],
    { stdio: ["ignore", "ignore", "inherit", "pipe"] },
  );
  children.push(child);
  const info = child.stdio[3] as Readable;
  let text = "";
  for await (const chunk of info) {
    text += String(chunk);
    if (text.trimEnd().endsWith("}")) break;
  }
  return (JSON.parse(text) as { "child-pid": number })["child-pid"];
}

/** slirp4netns processes attached to the namespace of `pid` (root joins it by path). */
function slirpFor(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        return (
          argv[0]?.endsWith("slirp4netns") === true &&
          argv.some((arg) => arg.includes(`/proc/${pid}/`) || arg === String(pid))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("startUserNet", () => {
  it("brings tap0 up in the sandbox's namespace, with the resolver address a granted run is given", async () => {
    const slirp = findSlirp4netns();
    expect(slirp, "slirp4netns is installed on this host").toMatch(/\/slirp4netns$/);
    const pid = await sandboxWithOwnNetwork();
    const net = await startUserNet(slirp as string, pid, process.getuid?.() === 0);
    expect(slirpFor(pid)).toHaveLength(1);
    try {
      expect(readFileSync(`/proc/${pid}/net/dev`, "utf8")).toMatch(/^\s*tap0:/m);
      expect(readFileSync(`/proc/${pid}/net/fib_trie`, "utf8")).toContain("10.0.2.100");
      // The host's own namespace has no tap0: only the sandbox got the interface.
      expect(readFileSync("/proc/self/net/dev", "utf8")).not.toMatch(/^\s*tap0:/m);
    } finally {
      net.stop();
    }
    await until(() => slirpFor(pid).length === 0, "slirp4netns ended by stop()");
    expect(USER_NET_RESOLV_CONF).toBe("nameserver 10.0.2.3\n");
  });

  it("says when the sandbox process is gone before its network was set up", async () => {
    const gone = spawn("true");
    await new Promise((resolve) => gone.once("exit", resolve));
    const pid = gone.pid as number;
    await expect(startUserNet(findSlirp4netns() as string, pid, true)).rejects.toThrow(
      `the sandbox process ${pid} is gone before its network was set up (ENOENT: no such file or directory, open '/proc/${pid}/net/fib_trie')`,
    );
  });

  it("gives up when the namespace's loopback never comes up", async () => {
    // unshare makes a network namespace whose lo stays down: 127.0.0.1 never appears in its table.
    const child = spawn("unshare", ["--net", "sleep", "30"], { stdio: "ignore" });
    children.push(child);
    const pid = child.pid as number;
    const own = readlinkSync("/proc/self/ns/net");
    await until(() => {
      try {
        return (
          readlinkSync(`/proc/${pid}/ns/net`) !== own &&
          readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep")
        );
      } catch {
        return false;
      }
    }, "sleep in a network namespace of its own");
    await expect(startUserNet(findSlirp4netns() as string, pid, true, 200)).rejects.toThrow(
      "the sandbox's loopback did not come up within 0.2 s",
    );
  });
});
