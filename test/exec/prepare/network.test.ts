// runtime/exec/prepare/network.ts: a network grant needs slirp4netns and, for a normal user, a usable /dev/net/tun; else the exact refusal.
import { execFile } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findSlirp4netns } from "../../../runtime/exec/netns.js";
import { userNetFor } from "../../../runtime/exec/prepare/network.js";
import { tempRoot } from "../../support/workspace.js";

const temp = tempRoot("skillgate-network-", { parent: "/tmp" });
afterAll(() => temp.cleanup());
const MODULE = fileURLToPath(new URL("../../../runtime/exec/prepare/network.ts", import.meta.url));
const UID = 2_147_400_000 + (process.pid % 100_000);

/**
 * userNetFor('a.py', true) in a fresh process inside a mount namespace of its own (root), where `binds` lay
 * files over host paths (nothing changes for the rest of the machine), optionally as an unprivileged uid.
 */
function inNamespace(binds: Array<[file: string, over: string]>, uid?: number): Promise<unknown> {
  const mounts = binds.map(([file, over]) => `mount --bind ${file} ${over}`).join(" && ");
  const drop = uid === undefined ? "" : `setpriv --reuid=${uid} --regid=${uid} --clear-groups `;
  const script = `const m = await import(${JSON.stringify(MODULE)}); console.log(JSON.stringify(await m.userNetFor("a.py", true)));`;
  return new Promise((resolve, reject) => {
    execFile(
      "unshare",
      [
        "--mount",
        "sh",
        "-c",
        `${mounts} && exec ${drop}env HOME=/tmp node --import tsx --input-type=module -e '${script}'`,
      ],
      { cwd: fileURLToPath(new URL("../../..", import.meta.url)), timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

function file(name: string, mode: number): string {
  const path = temp.path(name);
  writeFileSync(path, "");
  chmodSync(path, mode);
  return path;
}

describe("userNetFor", () => {
  it("needs nothing without a grant", async () => {
    expect(await userNetFor("a.py", false)).toEqual({ slirp: null });
  });

  it("gives root the host's slirp4netns for a grant", async () => {
    expect(findSlirp4netns(), "slirp4netns is installed on this host").not.toBeNull();
    expect(await userNetFor("a.py", true)).toEqual({ slirp: findSlirp4netns() });
  });

  it("refuses a grant when slirp4netns is not installed", async () => {
    const slirp = findSlirp4netns() as string;
    expect(await inNamespace([[file("not-a-program", 0o644), slirp]])).toEqual({
      refusal: {
        status: "sandbox_unavailable",
        code: "SANDBOX_UNAVAILABLE",
        message:
          "script 'a.py' is granted the network, which runs through user-mode networking (slirp4netns) in its own network namespace so the host's loopback services stay unreachable, but slirp4netns is not installed",
        fix: "apt-get install slirp4netns, or remove the network grant (exec.grants) of this skill",
      },
    });
  });

  it("refuses a normal user's grant when /dev/net/tun is not usable to it", async () => {
    expect(await inNamespace([[file("tun-root-only", 0o600), "/dev/net/tun"]], UID)).toEqual({
      refusal: {
        status: "sandbox_unavailable",
        code: "SANDBOX_UNAVAILABLE",
        message: `script 'a.py' is granted the network, but its user-mode network cannot start: /dev/net/tun is not readable and writable for uid ${UID} (EACCES)`,
        fix: "make /dev/net/tun usable (its usual mode is 0666), run skillgate as root, or remove the network grant (exec.grants) of this skill",
      },
    });
  });

  it("lets a normal user through when /dev/net/tun is usable", async () => {
    expect(await inNamespace([[file("tun-for-all", 0o666), "/dev/net/tun"]], UID)).toEqual({
      slirp: findSlirp4netns(),
    });
  });
});
