// Network grant: user-mode networking (slirp4netns) attached to the run's own network namespace, host loopback refused.
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { findExecutable } from "./runner.js";

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The resolver a granted run sees: slirp4netns forwards 10.0.2.3 to the host's own resolver. */
export const USER_NET_RESOLV_CONF = "nameserver 10.0.2.3\n";

export interface UserNet {
  /** Ends the user-mode stack (also ends by itself when skillgate dies: its exit descriptor closes). */
  stop(): void;
}

/**
 * bwrap's sandbox child gives its loopback 127.0.0.1 itself; slirp4netns raising lo first would make the kernel
 * add that address and bwrap's own RTM_NEWADDR fail. So wait until the address is in the namespace's table.
 */
async function loopbackReady(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let table: string;
    try {
      table = await readFile(`/proc/${pid}/net/fib_trie`, "utf8");
    } catch (error) {
      throw new Error(
        `the sandbox process ${pid} is gone before its network was set up (${(error as Error).message})`,
      );
    }
    if (table.includes("127.0.0.1")) return;
    if (Date.now() > deadline)
      throw new Error(`the sandbox's loopback did not come up within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** slirp4netns on this host, or null. */
export function findSlirp4netns(): string | null {
  return findExecutable("slirp4netns", SYSTEM_PATH);
}

/**
 * Attaches slirp4netns to the network namespace of `pid` (bwrap's sandbox child, still blocked before exec).
 * --disable-host-loopback refuses the host's 127.0.0.0/8; abstract unix sockets are per network namespace,
 * so the host's are unreachable too. Resolves once the interface is up.
 */
export async function startUserNet(
  slirp: string,
  pid: number,
  asRoot: boolean,
  timeoutMs = 10_000,
): Promise<UserNet> {
  await loopbackReady(pid, timeoutMs);
  const args = [
    "--configure",
    "--mtu=65520",
    "--disable-host-loopback",
    "--enable-sandbox",
    "--enable-seccomp",
    "--ready-fd=3",
    "--exit-fd=4",
    // Root enters the network namespace by path and no user namespace: bwrap nests a second user namespace
    // inside the one owning the network namespace, and from the inner one the outer's netns is out of reach.
    // A normal user must join a user namespace to get in at all.
    ...(asRoot
      ? ["--netns-type=path", `/proc/${pid}/ns/net`]
      : [`--userns-path=/proc/${pid}/ns/user`, String(pid)]),
    "tap0",
  ];
  const child: ChildProcess = spawn(slirp, args, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const ready = child.stdio[3] as Readable;
  const exitPipe = child.stdio[4] as Readable;
  ready.on("error", () => undefined);
  exitPipe.on("error", () => undefined);
  const stop = (): void => {
    exitPipe.destroy();
    child.kill("SIGKILL");
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(`slirp4netns did not bring the network up within ${timeoutMs / 1000} s: ${stderr.trim()}`),
      );
    }, timeoutMs);
    ready.once("data", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`slirp4netns exited (${code ?? signal}) before the network was up: ${stderr.trim()}`));
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return { stop };
}
