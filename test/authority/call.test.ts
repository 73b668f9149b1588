// `skillgate call` on a served workspace (authority/call.ts): routed by the server record to its socket, local flags refused, local again once it stops.
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callThroughServer, statusThroughServer } from "../../runtime/authority/index.js";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { tempRoot } from "../support/workspace.js";
import { skillgate, waitFor } from "./helpers.js";
import { self, serveFixture, stopServed } from "./socket-fixture.js";

afterEach(stopServed);

describe("callThroughServer", () => {
  it("call finds the socket in the server record, answers as a local call would, and refuses local flags", async () => {
    const { fixture, server } = await serveFixture();
    const record = JSON.parse(readFileSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"), "utf8"));
    expect(record).toMatchObject({
      version: 1,
      mode: "socket",
      socket: server.socket,
      workspace: fixture.ws,
    });
    const served = await skillgate(
      self,
      ["call", "Complete", "--workspace", fixture.ws, "--json"],
      fixture.env,
    );
    expect(served.code).toBe(1);
    expect(JSON.parse(served.stdout)).toMatchObject({
      tool: "Complete",
      isError: true,
      code: "SKILL_USAGE_INCOMPLETE",
    });
    expect(JSON.parse(served.stdout).structured.code).toBeUndefined();
    await waitFor("the call's connection in the server log", () =>
      server.stderr().includes("socket client 1"),
    );
    const flagged = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--config", fixture.configFile],
      fixture.env,
    );
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toBe(
      `error [FLAG_CONFLICT]: workspace ${fixture.ws} is served by a socket server (${server.socket}), whose own config and skill flags apply; drop --config from this call\n`,
    );
    // Stopping the server removes the record: calls are local again.
    expect(await server.stop()).toBe(0);
    expect(existsSync(join(fixture.ws, ".ucagent", "skillgate", "server.json"))).toBe(false);
    expect(existsSync(server.socket)).toBe(false);
    const local = await skillgate(
      self,
      ["call", "Status", "--workspace", fixture.ws, "--config", fixture.configFile],
      fixture.env,
    );
    expect(local.code, local.stderr).toBe(0);
  });

  it("in process: an unserved workspace is called locally (null); a served one's status says who serves it; every local flag is named", async () => {
    const { fixture, server } = await serveFixture();
    const unserved = tempRoot("skillgate-unserved-");
    try {
      expect(await callThroughServer({ workspace: unserved.dir }, "Status", {})).toBeNull();
      expect(await statusThroughServer({ workspace: unserved.dir })).toBeNull();
    } finally {
      unserved.cleanup();
    }
    const user = userInfo().username;
    const status = await statusThroughServer({ workspace: fixture.ws });
    expect(status?.text.split("\n")[0]).toBe(
      `Workspace ${fixture.ws}, served by a socket server (user ${user}) on ${server.socket}`,
    );
    expect(status?.json).toMatchObject({
      ok: true,
      workspace: fixture.ws,
      served_by: { mode: "socket", user, socket: server.socket },
    });
    expect(status?.text).toContain("current stage 0: 'report'");
    await expect(
      callThroughServer(
        {
          workspace: fixture.ws,
          configFile: fixture.configFile,
          argvFlags: ["--config", fixture.configFile],
          flags: { useSkill: false, extraSkillPaths: ["/skills"] },
        },
        "Status",
        {},
      ),
    ).rejects.toMatchObject({
      code: "FLAG_CONFLICT",
      message: `workspace ${fixture.ws} is served by a socket server (${server.socket}), whose own config and skill flags apply; drop --config, --no-use-skill, --extra-skill-path from this call`,
    });
  });

  it("an unserved workspace whose state folder belongs to another user (uid 65534) is refused, never written locally", async () => {
    // Needs root to hand the folder to another OS user; as any other user this test fails here (it must not pass vacuously).
    expect(process.getuid?.()).toBe(0);
    const ws = tempRoot("skillgate-foreign-state-");
    try {
      const paths = workspacePaths(ws.dir);
      mkdirSync(paths.skillgateDir, { recursive: true });
      chownSync(paths.skillgateDir, 65534, 65534);
      await expect(callThroughServer({ workspace: ws.dir }, "Status", {})).rejects.toMatchObject({
        code: "AUTHORITY_STATE_FOREIGN",
        message: `state folder ${paths.skillgateDir} belongs to uid 65534, not to this user (uid 0): the workspace is kept by a skillgate authority, and its evidence can only be written by it; fix: call the tools through it (skillgate call … --workspace ${ws.dir}, or skillgate connect), after the operator starts it (docs/authority.md)`,
      });
    } finally {
      ws.cleanup();
    }
  });
});
