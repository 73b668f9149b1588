// runtime/exec/plan/host-tools.ts: host executables a run needs, found per PATH or uid, and the level-1 guard that keeps a script from outliving skillgate.

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  hardNprocLimit,
  hostToolchain,
  levelOneGuard,
  prlimitFor,
  reportsSignalAsCode,
  SYSTEM_PATH,
} from "../../../runtime/exec/plan/host-tools.js";
import { findExecutable } from "../../../runtime/exec/runner.js";
import { processesWithMarker, survivors } from "../../support/host-probes.js";
import { until } from "../../support/poll.js";
import { tempRoot } from "../../support/workspace.js";

const temp = tempRoot("skillgate-host-tools-", { realpath: true });
const system = (name: string): string => {
  const found = findExecutable(name, SYSTEM_PATH.join(":"));
  if (found === null) throw new Error(`${name} (util-linux) is not installed on this host`);
  return found;
};
afterAll(() => temp.cleanup());

function tool(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

describe("hostToolchain", () => {
  it("finds python3, uv and node on the PATH given, as real paths, and answers each PATH on its own", async () => {
    const real = temp.path("real");
    const python = tool(real, "python3.11");
    const first = temp.path("path-a");
    mkdirSync(first);
    symlinkSync(python, join(first, "python3"));
    const uv = tool(first, "uv");
    const second = temp.path("path-b");
    const node = tool(second, "node");
    expect(await hostToolchain(first)).toEqual([python, uv]);
    expect(await hostToolchain(`${second}:${first}`)).toEqual([python, uv, node]);
    expect(hostToolchain(first)).toBe(hostToolchain(first));
    expect(await hostToolchain(temp.path("empty"))).toEqual([]);
  });
});

describe("prlimitFor", () => {
  it("finds util-linux's prlimit on the PATH given, or null", () => {
    expect(prlimitFor(SYSTEM_PATH.join(":"))).toBe(system("prlimit"));
    expect(prlimitFor(temp.path("no-prlimit-here"))).toBeNull();
  });
});

describe("levelOneGuard", () => {
  it("for root: parent-death SIGKILL, a pid namespace of its own, and a shell reaper so the script is not its init", async () => {
    expect(await levelOneGuard(0)).toEqual([
      system("setpriv"),
      "--pdeathsig",
      "KILL",
      "--",
      system("unshare"),
      "--pid",
      "--fork",
      "--kill-child=SIGKILL",
      "--",
      "/bin/sh",
      "-c",
      '"$@"; exit $?',
      "sh",
    ]);
    expect(levelOneGuard(0)).toBe(levelOneGuard(0));
  });

  it("for a normal user: a user namespace too, where unshare can make one", async () => {
    const guard = await levelOneGuard(4242);
    expect(guard.slice(4, 7)).toEqual([system("unshare"), "--user", "--map-current-user"]);
  });

  it("reports a crash as 128+N, which reportsSignalAsCode maps back", async () => {
    const argv = [...(await levelOneGuard(0)), "sh", "-c", "kill -SEGV $$"];
    expect(reportsSignalAsCode(argv)).toBe(true);
    expect(reportsSignalAsCode(["/usr/bin/python3", "a.py"])).toBe(false);
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: "ignore" });
    const code = await new Promise((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(128 + 11);
  });

  it("takes every process of the run along when the guard is killed, setsid'ed daemons included", async () => {
    const marker = `sg-guard-${randomUUID()}`;
    const argv = [...(await levelOneGuard(0)), "sh", "-c", "setsid sleep 30 & sleep 31"];
    const child = spawn(argv[0] as string, argv.slice(1), {
      stdio: "ignore",
      env: { ...process.env, SG_MARK: marker },
    });
    await until(() => processesWithMarker(marker).length >= 5, "the guard, its reaper and both sleeps");
    child.kill("SIGKILL");
    expect(await survivors(marker)).toEqual([]);
  });
});

describe("hardNprocLimit", () => {
  it("is this process's hard RLIMIT_NPROC", async () => {
    const line = /^Max processes\s+\S+\s+(\S+)/m.exec(readFileSync("/proc/self/limits", "utf8"))?.[1];
    expect(await hardNprocLimit()).toBe(line === "unlimited" ? 1 << 22 : Number(line));
  });
});
