// runtime/exec/spawn/spawn.ts: the prepared argv spawned without a shell, in a session of its own, with extra descriptors, born in its cgroup.
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../../runtime/exec/cgroup.js";
import { spawnRun } from "../../../runtime/exec/spawn/spawn.js";
import { tempRoot } from "../../support/workspace.js";
import { lowFds } from "./helpers.js";

const temp = tempRoot("skillgate-spawn-", { realpath: true });
afterAll(() => temp.cleanup());

function text(stream: unknown): Promise<string> {
  return new Promise((resolve) => {
    let collected = "";
    (stream as Readable).on("data", (chunk: Buffer) => {
      collected += chunk.toString("utf8");
    });
    (stream as Readable).once("end", () => resolve(collected));
  });
}

const PY_ARGS =
  "import sys, os; print(repr(sys.argv[1:])); print(os.getcwd()); print(os.environ.get('ONLY'), os.environ.get('HOME'))";

describe("spawnRun", () => {
  it("passes the argv verbatim (no shell), in the cwd, with exactly the env given, stdin closed", async () => {
    const { child, exited, bornInCgroup } = spawnRun({
      argv: ["python3", "-c", `${PY_ARGS}; print(repr(sys.stdin.read()))`, "a b", "$HOME", "`id`", "*"],
      cwd: temp.dir,
      env: { ONLY: "1", PATH: process.env.PATH ?? "" },
      cgroup: null,
      handshake: false,
    });
    const [out] = await Promise.all([text(child.stdout), exited]);
    expect(out).toBe(`['a b', '$HOME', '\`id\`', '*']\n${temp.dir}\n1 None\n''\n`);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(bornInCgroup).toBe(false);
  });

  it("starts a session and process group of its own", async () => {
    const { child, exited } = spawnRun({
      argv: ["sh", "-c", "cat /proc/self/stat"],
      cwd: temp.dir,
      env: {},
      cgroup: null,
      handshake: false,
    });
    const out = await text(child.stdout);
    await exited;
    const fields = out.slice(out.lastIndexOf(")") + 2).split(" ");
    expect([Number(fields[2]), Number(fields[3])]).toEqual([child.pid, child.pid]);
  });

  it("gives the hand-shake pair fds 3 and 4, and extra bytes as pipes after them", async () => {
    const { child, exited } = spawnRun({
      argv: ["sh", "-c", "echo info >&3; cat <&5; cat <&6; ls /proc/self/fd | sort -n | tr '\\n' ' '"],
      cwd: temp.dir,
      env: { PATH: process.env.PATH ?? "" },
      cgroup: null,
      handshake: true,
      extraFds: [Buffer.from("first\n"), Buffer.from("second\n")],
    });
    const [info, out] = await Promise.all([text(child.stdio[3]), text(child.stdout)]);
    (child.stdio[4] as unknown as { destroy(): void }).destroy();
    await exited;
    expect(info).toBe("info\n");
    expect(out.split("\n").slice(0, 2)).toEqual(["first", "second"]);
    expect(lowFds(out.split("\n")[2])).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("is born inside the run's pids cgroup when it has one (root, cgroup v1)", async () => {
    const made = createPidsCgroup(`sg-mirror-spawn-${process.pid}`, 8);
    if (!("cgroup" in made)) throw new Error(`needs root and a pids controller: ${made.reason}`);
    try {
      const { child, exited, bornInCgroup } = spawnRun({
        argv: ["cat", "/proc/self/cgroup"],
        cwd: temp.dir,
        env: {},
        cgroup: made.cgroup,
        handshake: false,
      });
      const out = await text(child.stdout);
      await exited;
      expect(bornInCgroup).toBe(true);
      const pids = out.split("\n").find((line) => line.split(":")[1] === "pids");
      expect(pids?.split(":")[2]).toBe(`/skillgate/sg-mirror-spawn-${process.pid}`);
      // skillgate's own thread went back where it was.
      expect(readFileSync(`/proc/self/task/${process.pid}/cgroup`, "utf8")).not.toContain("sg-mirror-spawn-");
    } finally {
      made.cgroup.destroy();
    }
  });

  it("reports a program that cannot start as the exit's error, never a throw", async () => {
    const { exited } = spawnRun({
      argv: ["/nonexistent/python3", "x.py"],
      cwd: temp.dir,
      env: {},
      cgroup: null,
      handshake: false,
    });
    const exit = await exited;
    expect([exit.code, exit.signal, exit.error?.code, exit.error?.path]).toEqual([
      null,
      null,
      "ENOENT",
      "/nonexistent/python3",
    ]);
  });
});
