// Serving the tools on a unix socket (authority/socket-server.ts): a stale socket replaced, a live one or a non-socket refused, path and mode checked, parallel connections sharing one session.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectClient } from "../../runtime/authority/client.js";
import { GATE_SKILL, GATE_SKILL_MD } from "../tools/helpers.js";
import { skillgate, startServer, waitFor } from "./helpers.js";
import { self, serveFixture, stopServed, text } from "./socket-fixture.js";

afterEach(stopServed);

describe("serveSocket", () => {
  it("replaces a stale socket, refuses a live one, a non-socket file, an over-long path and a bad mode", async () => {
    const { fixture, server } = await serveFixture(["--socket-mode", "600"]);
    expect(statSync(server.socket).mode & 0o777).toBe(0o600);
    const args = (socket: string, extra: string[] = []) => [
      "serve",
      "--workspace",
      fixture.ws,
      "--config",
      fixture.configFile,
      "--socket",
      socket,
      ...extra,
    ];
    const live = await skillgate(self, args(server.socket), fixture.env);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${server.socket}: another skillgate server is already listening there; fix: stop that server first, or choose another --socket path\n`,
    );
    const file = join(fixture.dir, "plain-file");
    writeFileSync(file, "x");
    const notSocket = await skillgate(self, args(file), fixture.env);
    expect(notSocket.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${file}: it exists and is not a socket; fix: remove it or choose another --socket path\n`,
    );
    const long = join(fixture.dir, `${"x".repeat(120)}.sock`);
    const tooLong = await skillgate(self, args(long), fixture.env);
    expect(tooLong.stderr).toContain(
      `error [SOCKET_UNAVAILABLE]: cannot serve on unix socket ${long}: the path is ${Buffer.byteLength(long)} bytes, over the 107-byte limit of unix sockets; fix: pass a shorter --socket path, e.g. /run/skillgate/<name>.sock\n`,
    );
    const badMode = await skillgate(
      self,
      args(join(fixture.dir, "b.sock"), ["--socket-mode", "rw"]),
      fixture.env,
    );
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain(
      "error [USAGE]: --socket-mode rw is not an octal file mode; fix: give three octal digits, e.g. --socket-mode 660 (owner and group may connect) or 600 (owner only)\n",
    );
    const orphan = await skillgate(self, ["serve", "--workspace", fixture.ws, "--same-user-ok"], fixture.env);
    expect(orphan.code).toBe(2);
    expect(orphan.stderr).toContain(
      "error [USAGE]: --same-user-ok needs --authority or --socket; add one of them or drop --same-user-ok\n",
    );
    // A server killed without cleanup leaves a socket file nobody answers on: the next start takes it over.
    // (the record's pid is the server itself; the spawned child is tsx, which would not pass SIGKILL on)
    const { pid } = JSON.parse(
      readFileSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"), "utf8"),
    );
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    process.kill(pid, "SIGKILL");
    await exited;
    expect(existsSync(server.socket)).toBe(true);
    const again = await startServer(self, args(server.socket).slice(1), fixture.env);
    try {
      const status = await skillgate(self, ["call", "Status", "--workspace", fixture.ws], fixture.env);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain("current stage 0: 'report'");
    } finally {
      await again.stop();
    }
  }, 180_000); // seven CLI processes one after another: slow on a loaded machine

  it("answers parallel calls over several connections at once, and the evidence they record adds up", async () => {
    const { fixture, server } = await serveFixture();
    const clients = await Promise.all(Array.from({ length: 5 }, () => connectClient(server.socket)));
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          clients.flatMap((client) => [
            client.callTool({ name: "ListSkill", arguments: {} }),
            client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD } }),
            client.callTool({ name: "Status", arguments: {} }),
            client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD, start: 1, count: 2 } }),
          ]),
        );
        expect(results).toHaveLength(20);
        for (const result of results) expect(result.isError, text(result)).toBe(false);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
    const status = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--json"],
      fixture.env,
    );
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).structured.skills).toMatchObject([
      { id: GATE_SKILL, listed: true, read: true, used: false },
    ]);
    await waitFor(
      "all six connections to close",
      () => (server.stderr().match(/disconnected/g) ?? []).length >= 6,
    );
  });
});
