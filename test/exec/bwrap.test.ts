// runtime/exec/bwrap.ts: the pure bubblewrap argv (with a fake host view), its bound sources and the toolchain's installation prefix.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import {
  type BwrapPlan,
  boundSources,
  bwrapArgv,
  installationPrefix,
  isHomeFolder,
  isUnder,
  realHost,
} from "../../runtime/exec/bwrap.js";
import { tempRoot } from "../support/workspace.js";

const host = {
  kinds: new Map<string, string>([
    ["/usr", "dir"],
    ["/bin", "symlink:usr/bin"],
    ["/lib", "symlink:usr/lib"],
    ["/lib64", "symlink:usr/lib64"],
    ["/etc/passwd", "file"],
    ["/etc/ssl", "dir"],
    ["/etc/resolv.conf", "file"],
    ["/etc/hosts", "file"],
    ["/home/u/ws/.git", "dir"],
    ["/home/u/ws/.git/hooks", "dir"],
    ["/home/u/ws/.ucagent", "dir"],
    ["/home/u/.ssh", "dir"],
    ["/home/u/.bashrc", "file"],
  ]),
  kind(path: string): string | null {
    return this.kinds.get(path) ?? null;
  },
};

function plan(overrides: Partial<BwrapPlan> = {}): BwrapPlan {
  return {
    bwrap: "/usr/bin/bwrap",
    command: ["/usr/bin/python3", "/home/u/ws/.ucagent/skills/s/scripts/a.py", "x y"],
    cwd: "/home/u/ws",
    skillDir: "/home/u/ws/.ucagent/skills/s",
    writablePaths: ["/home/u/ws"],
    persistentPaths: [],
    readOnlyPaths: ["/opt/py"],
    network: false,
    env: { PATH: "/usr/bin", HOME: "/tmp/home" },
    tmpSizeBytes: 1024,
    sensitivePaths: ["/home/u/.ssh", "/home/u/.bashrc", "/home/u/.aws"],
    ...overrides,
  };
}

describe("bwrapArgv", () => {
  it("builds the full isolation argv, without a shell", () => {
    expect(bwrapArgv(plan(), host)).toEqual([
      "/usr/bin/bwrap",
      "--unshare-user",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
      "--die-with-parent",
      "--new-session",
      "--cap-drop",
      "ALL",
      "--disable-userns",
      "--uid",
      "65534",
      "--gid",
      "65534",
      "--hostname",
      "skillgate",
      "--clearenv",
      "--setenv",
      "PATH",
      "/usr/bin",
      "--setenv",
      "HOME",
      "/tmp/home",
      "--ro-bind",
      "/usr",
      "/usr",
      "--symlink",
      "usr/bin",
      "/bin",
      "--symlink",
      "usr/lib",
      "/lib",
      "--symlink",
      "usr/lib64",
      "/lib64",
      "--ro-bind",
      "/etc/ssl",
      "/etc/ssl",
      "--ro-bind",
      "/etc/passwd",
      "/etc/passwd",
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--size",
      "1024",
      "--tmpfs",
      "/dev/shm",
      "--size",
      "1024",
      "--tmpfs",
      "/tmp",
      "--dir",
      "/tmp/home",
      "--bind",
      "/home/u/ws",
      "/home/u/ws",
      "--ro-bind",
      "/opt/py",
      "/opt/py",
      "--ro-bind",
      "/home/u/ws/.git",
      "/home/u/ws/.git",
      "--ro-bind",
      "/home/u/ws/.ucagent",
      "/home/u/ws/.ucagent",
      "--tmpfs",
      "/home/u/ws/.git/hooks",
      "--remount-ro",
      "/home/u/ws/.git/hooks",
      "--ro-bind",
      "/home/u/ws/.ucagent/skills/s",
      "/home/u/ws/.ucagent/skills/s",
      "--remount-ro",
      "/dev",
      "--remount-ro",
      "/",
      "--chdir",
      "/home/u/ws",
      "--",
      "/usr/bin/python3",
      "/home/u/ws/.ucagent/skills/s/scripts/a.py",
      "x y",
    ]);
  });

  it("always unshares the network; a grant adds the resolver of the user-mode network and /etc/hosts", () => {
    const argv = bwrapArgv(plan({ network: true, resolvConfFd: 6 }), host);
    expect(argv).toContain("--unshare-net");
    expect(argv.join(" ")).toContain("--ro-bind /etc/hosts /etc/hosts --ro-bind-data 6 /etc/resolv.conf");
    expect(argv.join(" ")).not.toContain("--ro-bind /etc/resolv.conf");
    expect(bwrapArgv(plan(), host).join(" ")).not.toContain("/etc/hosts");
  });

  it("masks sensitive paths that fall inside a bound folder (workspace = home)", () => {
    const argv = bwrapArgv(plan({ cwd: "/home/u", writablePaths: ["/home/u"] }), host).join(" ");
    expect(argv).toContain("--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh");
    expect(argv).toContain("--ro-bind /dev/null /home/u/.bashrc");
    expect(argv).not.toContain("/home/u/.aws");
  });

  it("binds the workspace read-only and only OUT writable when asked", () => {
    const argv = bwrapArgv(
      plan({ writablePaths: ["/home/u/ws/out"], persistentPaths: ["/c/uv"] }),
      host,
    ).join(" ");
    expect(argv).toContain(
      "--ro-bind /home/u/ws /home/u/ws --bind /home/u/ws/out /home/u/ws/out --bind /c/uv /c/uv",
    );
  });

  it("applies every read-only bind after the writable ones (installation and nested .git inside the workspace)", () => {
    const argv = bwrapArgv(
      plan({
        readOnlyPaths: ["/home/u/ws/node_modules"],
        protectedPaths: ["/home/u/ws/dut/.git", "/home/u/ws/tools/skillgate"],
      }),
      host,
    ).join(" ");
    const writable = argv.indexOf("--bind /home/u/ws /home/u/ws");
    for (const readOnly of [
      "--ro-bind /home/u/ws/node_modules /home/u/ws/node_modules",
      "--ro-bind /home/u/ws/dut/.git /home/u/ws/dut/.git",
      "--ro-bind /home/u/ws/tools/skillgate /home/u/ws/tools/skillgate",
      "--ro-bind /home/u/ws/.ucagent/skills/s /home/u/ws/.ucagent/skills/s",
    ]) {
      expect(argv.indexOf(readOnly), readOnly).toBeGreaterThan(writable);
    }
  });

  it("makes /proc/sys read-only, masks /proc/sysrq-trigger and friends, sizes /dev/shm, loads seccomp", () => {
    const procHost = {
      kind: (path: string) =>
        ["/proc/sys", "/proc/sysrq-trigger", "/proc/keys"].includes(path)
          ? path === "/proc/sys"
            ? "dir"
            : "file"
          : path === "/proc/acpi"
            ? "dir"
            : host.kind(path),
    };
    const argv = bwrapArgv(plan({ seccompFd: 5, shmSizeBytes: 77 }), procHost).join(" ");
    expect(argv).toContain(
      "--proc /proc --ro-bind /proc/sys /proc/sys --ro-bind /dev/null /proc/sysrq-trigger --ro-bind /dev/null /proc/keys --tmpfs /proc/acpi --remount-ro /proc/acpi --dev /dev --size 77 --tmpfs /dev/shm",
    );
    expect(argv).toContain("--remount-ro /dev --remount-ro / --seccomp 5 --chdir");
  });

  it("leaves out options an older bwrap does not know", () => {
    const argv = bwrapArgv(plan({ features: { disableUserns: false, tmpfsSize: false } }), host);
    expect(argv).not.toContain("--disable-userns");
    expect(argv).not.toContain("--size");
    expect(argv.join(" ")).toContain("--tmpfs /dev/shm --tmpfs /tmp --dir /tmp/home");
  });

  it("binds the Python hook's folder read-only at its own mount, after the skill and before the root turns read-only", () => {
    const argv = bwrapArgv(plan({ pythonHook: "/root/.skillgate/cache/python/hold-x" }), host).join(" ");
    expect(argv).toContain(
      "--ro-bind /home/u/ws/.ucagent/skills/s /home/u/ws/.ucagent/skills/s --ro-bind /root/.skillgate/cache/python/hold-x /run/skillgate-python --remount-ro /dev --remount-ro /",
    );
    expect(bwrapArgv(plan(), host).join(" ")).not.toContain("skillgate-python");
  });

  it("adds the cgroup hand-shake descriptors when given", () => {
    const argv = bwrapArgv(plan({ infoFd: 3, blockFd: 4 }), host).join(" ");
    expect(argv).toContain("--remount-ro / --info-fd 3 --block-fd 4 --chdir /home/u/ws -- /usr/bin/python3");
  });
});

describe("installationPrefix", () => {
  it.each([
    ["/usr/bin/python3", null],
    ["/root/.pyenv/versions/3.11.7/bin/python3.11", "/root/.pyenv/versions/3.11.7"],
    ["/work/app/node_modules/tsx/dist/cli.mjs", "/work/app/node_modules"],
    // Never a home folder or a folder directly inside one: only the executable itself.
    ["/root/bin/tool", "/root/bin/tool"],
    ["/root/tool", "/root/tool"],
    ["/root/.local/bin/uv", "/root/.local/bin/uv"],
    ["/root/.cargo/bin/rg", "/root/.cargo/bin/rg"],
    ["/home/alice/.local/bin/uv", "/home/alice/.local/bin/uv"],
    ["/home/alice/tools/node/bin/node", "/home/alice/tools/node"],
    ["/opt/node/bin/node", "/opt/node"],
    ["/opt/bin/tool", "/opt"],
  ])("%s → %s", (executable, prefix) => {
    expect(installationPrefix(executable, "/root")).toBe(prefix);
  });
});

describe("boundSources", () => {
  it("lists every host path the argv binds, once: writable, caches, read-only, cwd outside them, inner state, protected, skill", () => {
    expect(
      boundSources(
        plan({
          cwd: "/home/u/ws",
          writablePaths: ["/home/u/ws/out", "/home/u/ws"],
          persistentPaths: ["/c/uv", "/opt/py"],
          protectedPaths: ["/home/u/ws/dut/.git"],
        }),
        host,
      ),
    ).toEqual([
      "/home/u/ws/out",
      "/home/u/ws",
      "/c/uv",
      "/opt/py",
      "/home/u/ws/.git",
      "/home/u/ws/.ucagent",
      "/home/u/ws/dut/.git",
      "/home/u/ws/.ucagent/skills/s",
    ]);
  });

  it("lists the Python hook's folder last (the sandbox's uid must be let through to it)", () => {
    expect(
      boundSources(
        plan({ writablePaths: ["/home/u/ws"], readOnlyPaths: [], pythonHook: "/root/.skillgate/h" }),
        host,
      ).at(-1),
    ).toBe("/root/.skillgate/h");
  });

  it("adds the cwd when no writable folder holds it (only OUT writable)", () => {
    expect(boundSources(plan({ writablePaths: ["/home/u/ws/out"], readOnlyPaths: [] }), host)).toEqual([
      "/home/u/ws/out",
      "/home/u/ws",
      "/home/u/ws/.ucagent/skills/s",
    ]);
  });
});

describe("isUnder and isHomeFolder", () => {
  it.each([
    ["/a/b", "/a", true],
    ["/a", "/a", true],
    ["/ab", "/a", false],
    ["/a/b", "/a/", true],
    ["/", "/a", false],
    ["/a/b/c", "/", true],
  ])("isUnder(%s, %s) is %s", (path, dir, under) => {
    expect(isUnder(path, dir)).toBe(under);
  });

  it.each([
    ["/home/alice", true],
    ["/root", true],
    ["/srv/me", true],
    ["/home/alice/tools", false],
    ["/home", false],
    ["/opt", false],
  ])("isHomeFolder(%s) with HOME=/srv/me is %s", (dir, home) => {
    expect(isHomeFolder(dir, "/srv/me")).toBe(home);
  });
});

describe("realHost", () => {
  const temp = tempRoot("skillgate-bwrap-host-", { realpath: true });
  afterAll(() => temp.cleanup());

  it("tells folders, files, symlinks to folders (with their target), symlinks to files and missing paths apart", () => {
    mkdirSync(temp.path("dir"));
    writeFileSync(temp.path("file"), "x");
    symlinkSync("dir", temp.path("to-dir"));
    symlinkSync("file", temp.path("to-file"));
    symlinkSync("nowhere", temp.path("dangling"));
    expect(
      ["dir", "file", "to-dir", "to-file", "dangling", "missing"].map((name) =>
        realHost.kind(temp.path(name)),
      ),
    ).toEqual(["dir", "file", "symlink:dir", "file", null, null]);
  });
});
