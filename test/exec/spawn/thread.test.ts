// runtime/exec/spawn/thread.ts: a run's child spawned on the spawn thread behaves, seen from here, as one spawned here.
import { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SpawnInput,
  spawnOffThread,
  spawnRun,
  spawnRunAsync,
} from "../../../runtime/exec/spawn/spawn.js";
import { RelayedChild } from "../../../runtime/exec/spawn/thread.js";
import { tempRoot } from "../../support/workspace.js";
import { lowFds } from "./helpers.js";

const temp = tempRoot("skillgate-spawn-thread-", { realpath: true });
beforeAll(() => spawnOffThread(true));
afterAll(() => {
  spawnOffThread(false);
  temp.cleanup();
});

function text(stream: unknown): Promise<string> {
  return new Promise((resolve) => {
    let collected = "";
    (stream as Readable).on("data", (chunk: Buffer) => {
      collected += chunk.toString("utf8");
    });
    (stream as Readable).once("end", () => resolve(collected));
  });
}

const sh = (script: string, extra: Partial<SpawnInput> = {}): SpawnInput => ({
  argv: ["sh", "-c", script],
  cwd: temp.dir,
  env: { PATH: process.env.PATH ?? "" },
  cgroup: null,
  handshake: true,
  ...extra,
});

describe("spawnRunAsync on the spawn thread", () => {
  it("spawns a hand-shake run there, and any other run here (a cgroup-v1 birth move needs this thread)", async () => {
    const off = await spawnRunAsync(sh("exit 0"));
    expect(off.child).toBeInstanceOf(RelayedChild);
    (off.child.stdio[4] as Writable).end();
    expect(await off.exited).toEqual({ code: 0, signal: null });
    const here = await spawnRunAsync(sh("exit 0", { handshake: false }));
    expect(here.child).toBeInstanceOf(ChildProcess);
    expect(await here.exited).toEqual({ code: 0, signal: null });
  });

  it("passes the argv verbatim, in the cwd, with exactly the env, in a session and process group of its own", async () => {
    const { child, exited } = await spawnRunAsync({
      argv: [
        "python3",
        "-c",
        "import sys, os; print(repr(sys.argv[1:])); print(os.getcwd(), os.environ.get('ONLY'), os.environ.get('HOME'), os.getsid(0) == os.getpid() == os.getpgid(0))",
        "a b",
        "$HOME",
        "`id`",
      ],
      cwd: temp.dir,
      env: { ONLY: "1", PATH: process.env.PATH ?? "" },
      cgroup: null,
      handshake: true,
    });
    const out = await text(child.stdout);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(out).toBe(`['a b', '$HOME', '\`id\`']\n${temp.dir} 1 None True\n`);
    expect(child.exitCode).toBe(0);
  });

  it("gives the hand-shake pair fds 3 and 4 (both ways), extra bytes as pipes after them, nothing above", async () => {
    const { child, exited } = await spawnRunAsync(
      sh(
        "echo info >&3; read go <&4; echo \"got $go\"; cat <&5; cat <&6; ls /proc/self/fd | sort -n | tr '\\n' ' '",
        {
          extraFds: [Buffer.from("first\n"), Buffer.from("second\n")],
        },
      ),
    );
    const info = await new Promise<string>((resolve) =>
      (child.stdio[3] as Readable).once("data", (c: Buffer) => resolve(c.toString())),
    );
    (child.stdio[4] as Writable).end("go\n");
    const out = await text(child.stdout);
    await exited;
    expect(info).toBe("info\n");
    const lines = out.split("\n");
    expect(lines.slice(0, 3)).toEqual(["got go", "first", "second"]);
    expect(lowFds(lines[3])).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("keeps a 'socket' extra descriptor open both ways for the caller", async () => {
    const { child, exited } = await spawnRunAsync(
      sh('echo r >&5; read answer <&5; echo "answer $answer"', { extraFds: ["socket"] }),
    );
    const socket = child.stdio[5] as Readable & Writable;
    const first = await new Promise<string>((resolve) =>
      socket.once("data", (c: Buffer) => resolve(c.toString())),
    );
    socket.end("g\n");
    const out = await text(child.stdout);
    await exited;
    expect([first, out]).toEqual(["r\n", "answer g\n"]);
  });

  it("relays a large output byte for byte, stdout and stderr each in order", async () => {
    const { child, exited } = await spawnRunAsync(
      sh("head -c 3000000 /dev/zero | tr '\\0' 'a'; echo done >&2"),
    );
    const [out, err] = await Promise.all([text(child.stdout), text(child.stderr)]);
    await exited;
    expect([out.length, /^a+$/.test(out), err]).toEqual([3_000_000, true, "done\n"]);
  });

  it("reports the exit code and the signal of a killed process group, as killTree sends it from this thread", async () => {
    const coded = await spawnRunAsync(sh("exit 7"));
    expect(await coded.exited).toEqual({ code: 7, signal: null });
    const { child, exited } = await spawnRunAsync(sh("echo up; sleep 30"));
    await new Promise((resolve) => child.stdout?.once("data", resolve));
    process.kill(-(child.pid as number), "SIGKILL");
    expect(await exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(child.signalCode).toBe("SIGKILL");
  });

  it("gives a missing program the same error event as a spawn here (ENOENT, no pid)", async () => {
    const input = sh("", { argv: [`${temp.dir}/no-such-program`] });
    const off = await spawnRunAsync(input);
    const here = spawnRun(input);
    const [a, b] = await Promise.all([off.exited, here.exited]);
    expect([off.child.pid, a.error?.code, a.error?.syscall]).toEqual([undefined, "ENOENT", b.error?.syscall]);
    expect(b.error?.code).toBe("ENOENT");
  });

  it("rejects what spawn() itself refuses, with its code (a NUL byte in an argument)", async () => {
    const input = sh("", { argv: ["sh", "-c", "a\u0000b"] });
    const direct = (() => {
      try {
        spawnRun(input);
        return "spawned";
      } catch (error) {
        return (error as NodeJS.ErrnoException).code;
      }
    })();
    await expect(spawnRunAsync(input)).rejects.toMatchObject({ code: direct });
    expect(direct).toBe("ERR_INVALID_ARG_VALUE");
  });

  it("covers nothing it should not: the child's fd table is the one a spawn here gets", async () => {
    const script = "ls /proc/self/fd | sort -n | tr '\\n' ' '";
    const off = await spawnRunAsync(sh(script));
    const here = spawnRun(sh(script));
    (off.child.stdio[4] as Writable).end();
    (here.child.stdio[4] as Writable).end();
    const [a, b] = await Promise.all([text(off.child.stdout), text(here.child.stdout)]);
    expect(a).toBe(b);
    expect(readFileSync("/proc/self/status", "utf8")).toMatch(/Threads:/);
  });
});
