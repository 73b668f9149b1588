// The client side of a socket server (authority/client.ts): the MCP SDK client through `skillgate connect`'s stdio relay, and who should answer when nothing does.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TOOL_NAMES } from "../../runtime/contracts/index.js";
import { GATE_SKILL, GATE_SKILL_MD } from "../tools/helpers.js";
import { connectBridge, skillgate, waitFor } from "./helpers.js";
import { self, serveFixture, stopServed, text } from "./socket-fixture.js";

afterEach(stopServed);

describe("skillgate connect and call as socket clients", () => {
  it("the MCP SDK client over stdio into connect completes the forced stage; the server shares one session", async () => {
    const { fixture, server } = await serveFixture();
    expect(server.socket).toBe(join(fixture.dir, "sg.sock"));
    expect(statSync(server.socket).mode & 0o777).toBe(0o660);
    const bridge = await connectBridge(self, ["--socket", server.socket], fixture.env);
    try {
      const { client } = bridge;
      const { tools } = await client.listTools();
      // The same tools as over stdio: the socket serves the one MCP server.
      expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
      const early = await client.callTool({ name: "Complete", arguments: {} });
      expect(early.isError).toBe(true);
      expect((early.structuredContent as { code: string }).code).toBe("SKILL_USAGE_INCOMPLETE");
      await client.callTool({ name: "ListSkill", arguments: {} });
      const read = await client.callTool({ name: "ReadTextFile", arguments: { path: GATE_SKILL_MD } });
      expect((read.structuredContent as { skill_read: unknown }).skill_read).toEqual({
        skill_id: GATE_SKILL,
        read_complete: true,
      });
      const ran = await client.callTool({
        name: "RunSkillScript",
        arguments: { commands: [[GATE_SKILL, "make_report.py", "--title Bridge"]] },
      });
      expect(ran.isError, text(ran)).toBe(false);
      expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toContain("# Bridge");
      expect((await client.callTool({ name: "Check", arguments: {} })).isError).toBe(false);
      // A second client (a CLI call) on the same server sees and extends the same evidence.
      const usage = await skillgate(
        self,
        [
          "call",
          "SetSkillUsage",
          JSON.stringify({ skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } }),
          "--workspace",
          fixture.ws,
        ],
        fixture.env,
      );
      expect(usage.code, usage.stderr).toBe(0);
      const done = await client.callTool({ name: "Complete", arguments: {} });
      expect(done.isError, text(done)).toBe(false);
      expect(text(done)).toContain(
        "Stage 0 completed successfully. Current stage index is now 1: 'summary'.",
      );
    } finally {
      await bridge.close();
    }
    await waitFor(
      "both clients to disconnect",
      () => (server.stderr().match(/disconnected/g) ?? []).length >= 2,
    );
    expect(server.stderr()).toMatch(/socket client 1 connected/);
  });

  it("connect and call say who should answer when the server is gone", async () => {
    const { fixture, server } = await serveFixture();
    const recordFile = join(fixture.ws, ".ucagent", "skillgate", "server.json");
    const record = readFileSync(recordFile, "utf8");
    await server.stop();
    // A server that died leaves its record behind.
    writeFileSync(recordFile, record);
    const { pid, started_at: started, user } = JSON.parse(record);
    const who = `(a skillgate server of ${fixture.ws}, user ${user}, pid ${pid}, started ${started})`;
    const called = await skillgate(self, ["call", "Status", "--workspace", fixture.ws], fixture.env);
    expect(called.code).toBe(1);
    expect(called.stderr).toBe(
      `error [AUTHORITY_UNREACHABLE]: nothing answers on unix socket ${server.socket} ${who} (ENOENT); fix: start it again with \`skillgate serve --socket ${server.socket} --workspace ${fixture.ws}\`, or delete ${fixture.ws}/.ucagent/skillgate/server.json to work without it\n`,
    );
    const bridged = await skillgate(self, ["connect", "--workspace", fixture.ws], fixture.env, "");
    expect(bridged.code).toBe(1);
    expect(bridged.stdout).toBe("");
    expect(bridged.stderr).toBe(called.stderr);
    const bare = await skillgate(
      self,
      ["connect", "--socket", join(fixture.dir, "none.sock")],
      fixture.env,
      "",
    );
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe(
      `error [AUTHORITY_UNREACHABLE]: nothing answers on unix socket ${join(fixture.dir, "none.sock")} (ENOENT); fix: check the path, and that \`skillgate serve --socket\` or \`--authority\` runs\n`,
    );
  });
});
