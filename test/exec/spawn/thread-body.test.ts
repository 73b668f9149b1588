// runtime/exec/spawn/thread-body.ts: the spawn thread's side, driven over a message channel: spawns, relays in order, obeys writes.
import { createRequire } from "node:module";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { type FromThread, spawnThreadBody, type ToThread } from "../../../runtime/exec/spawn/thread-body.js";

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A thread body on one end of a channel; `messages` gathers what it sends until `until` is true of the last one. */
function body(): {
  send(message: ToThread): void;
  until(done: (m: FromThread) => boolean): Promise<FromThread[]>;
} {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  spawnThreadBody(createRequire(import.meta.url), port1);
  const seen: FromThread[] = [];
  let waiting: { done: (m: FromThread) => boolean; resolve: (all: FromThread[]) => void } | null = null;
  port2.on("message", (message: FromThread) => {
    seen.push(message);
    if (waiting?.done(message)) waiting.resolve(seen);
  });
  return {
    send: (message) => port2.postMessage(message),
    until: (done) =>
      new Promise((resolve) => {
        if (seen.some(done)) resolve(seen);
        else waiting = { done, resolve };
      }),
  };
}

const spawnMessage = (
  id: number,
  script: string,
  extra: Partial<Extract<ToThread, { t: "spawn" }>> = {},
): ToThread => ({
  t: "spawn",
  id,
  file: "sh",
  args: ["-c", script],
  cwd: "/",
  env: { PATH: process.env.PATH ?? "" },
  stdio: ["ignore", "pipe", "pipe"],
  feeds: [],
  ...extra,
});

const decoded = (messages: FromThread[], fd: number): string =>
  messages
    .filter((m): m is Extract<FromThread, { t: "data" }> => m.t === "data" && m.fd === fd)
    .map((m) => Buffer.from(m.bytes).toString())
    .join("");

describe("spawnThreadBody", () => {
  it("sends spawned (with the pid), then each pipe's data, end and close, the exit, and gone last", async () => {
    const thread = body();
    thread.send(spawnMessage(1, "echo out; echo err >&2; exit 3"));
    const all = await thread.until((m) => m.t === "gone");
    expect(all[0]).toMatchObject({ t: "spawned", id: 1, pid: expect.any(Number) });
    expect([decoded(all, 1), decoded(all, 2)]).toEqual(["out\n", "err\n"]);
    expect(all.find((m) => m.t === "exit")).toEqual({ t: "exit", id: 1, code: 3, signal: null });
    for (const fd of [1, 2]) {
      const kinds = all.filter((m) => "fd" in m && m.fd === fd).map((m) => m.t);
      expect(kinds.slice(-2)).toEqual(["end", "close"]);
    }
    expect(all.at(-1)).toEqual({ t: "gone", id: 1 });
  });

  it("feeds bytes to a fed pipe and relays nothing of it; writes and ends a pipe on request", async () => {
    const thread = body();
    thread.send(
      spawnMessage(2, 'cat <&3; read line <&4; echo "line $line"', {
        stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
        feeds: [{ fd: 3, bytes: new Uint8Array(Buffer.from("fed\n")) }],
      }),
    );
    await thread.until((m) => m.t === "spawned");
    thread.send({ t: "write", id: 2, fd: 4, bytes: new Uint8Array(Buffer.from("written\n")) });
    thread.send({ t: "end", id: 2, fd: 4 });
    const all = await thread.until((m) => m.t === "gone");
    expect(decoded(all, 1)).toBe("fed\nline written\n");
    expect(all.some((m) => m.t === "data" && m.fd === 3)).toBe(false);
  });

  it("relays an error event for a missing program, and what spawn() throws as thrown", async () => {
    const thread = body();
    thread.send(spawnMessage(3, "", { file: "/nonexistent/sg-spawner-prog", args: [] }));
    thread.send(spawnMessage(4, "", { args: ["-c", "a\u0000b"] }));
    const all = await thread.until((m) => m.t === "gone" && m.id === 3);
    expect(all.find((m) => m.id === 3 && m.t === "error")).toMatchObject({
      error: {
        code: "ENOENT",
        syscall: "spawn /nonexistent/sg-spawner-prog",
        path: "/nonexistent/sg-spawner-prog",
      },
    });
    expect(all.find((m) => m.id === 4)).toMatchObject({
      t: "thrown",
      error: { code: "ERR_INVALID_ARG_VALUE" },
    });
  });

  it("destroys a pipe on request (the child sees its reader gone) and ignores messages for unknown runs", async () => {
    const thread = body();
    thread.send({ t: "write", id: 99, fd: 1, bytes: new Uint8Array(1) });
    thread.send(spawnMessage(5, "sleep 0.5; echo late; exit 0"));
    await thread.until((m) => m.t === "spawned");
    thread.send({ t: "destroy", id: 5, fd: 1 });
    const all = await thread.until((m) => m.t === "gone");
    expect(decoded(all, 1)).toBe("");
    expect(all.find((m) => m.t === "exit")).toEqual({ t: "exit", id: 5, code: null, signal: "SIGPIPE" });
  });
});
