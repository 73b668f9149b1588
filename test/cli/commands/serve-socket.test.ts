// `skillgate serve --socket` / `--authority` as real processes: flag refusals, the listening line, a clean stop.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { socketConnectHelp } from "../../../runtime/cli/commands/serve-socket.js";
import { fixturesForFile, skillgate } from "../helpers.js";
import { startSocketServer } from "./socket-serve.js";

const fixture = fixturesForFile();

describe("socketConnectHelp", () => {
  it("gives the one-line configs of the common MCP hosts and the shell, all through `connect --socket`", () => {
    const help = socketConnectHelp("/ws/.ucagent/skillgate/server.sock", "/ws").split("\n");
    expect(help[0]).toBe("Connect an MCP client (it starts the stdio bridge itself):");
    expect(help[1]).toMatch(
      /^ {2}Claude Code: {4}claude mcp add skillgate -- .+ connect --socket \/ws\/\.ucagent\/skillgate\/server\.sock$/,
    );
    expect(help[2]).toMatch(/^ {2}Codex CLI: {6}codex mcp add skillgate -- .+ connect --socket /);
    expect(help[3]).toMatch(
      /^ {2}MCP Inspector: {2}npx @modelcontextprotocol\/inspector .+ connect --socket /,
    );
    expect(help[4]).toMatch(/ call Status --workspace \/ws {3}\(finds the socket itself\)$/);
  });
});

describe("serve --socket / --authority refusals (exit 2, nothing started)", () => {
  it.each([
    [
      ["--socket", "S"],
      "error [USAGE]: serve --socket needs --workspace <dir>: name the agent's workspace folder\n",
    ],
    [
      ["--authority"],
      "error [USAGE]: serve --authority needs --workspace <dir>: name the agent's workspace folder\n",
    ],
    [
      ["--socket", "S", "WS", "--same-user-ok"],
      "error [USAGE]: --same-user-ok only applies to --authority; add --authority or drop it\n",
    ],
    [
      ["--socket", "S", "WS", "--socket-mode", "999"],
      "error [USAGE]: --socket-mode 999 is not an octal file mode; fix: give three octal digits, e.g. --socket-mode 660 (owner and group may connect) or 600 (owner only)\n",
    ],
    [
      ["--authority", "WS", "--http", "127.0.0.1:0"],
      "error [USAGE]: serve --authority --http needs --auth-token-file FILE: every local user can reach a loopback port, so without a token anyone could drive the authority; give the token file to the agent's user only\n",
    ],
  ])("serve %j", async (args, stderr) => {
    const f = fixture();
    const socket = join(f.dir, "s.sock");
    const argv = args.flatMap((arg) =>
      arg === "S" ? [socket] : arg === "WS" ? ["--workspace", f.ws, "--config", f.configFile] : [arg],
    );
    expect(await skillgate(["serve", ...argv], f.env)).toEqual({ code: 2, stdout: "", stderr });
    expect(existsSync(socket)).toBe(false);
    expect(existsSync(f.ws)).toBe(false);
  });
});

describe("serve --socket", () => {
  it("prints the listening line on stderr (stdout stays empty), records the server, and stops on SIGTERM", async () => {
    const f = fixture();
    const socket = join(f.dir, "s.sock");
    const server = await startSocketServer(socket, ["--workspace", f.ws, "--config", f.configFile], f.env);
    try {
      expect(server.listening).toEqual({ event: "listening", socket, mode: "socket", workspace: f.ws });
      expect(existsSync(socket)).toBe(true);
      expect(existsSync(join(f.ws, ".ucagent", "skillgate", "server.json"))).toBe(true);
      // The served workspace is called through its socket (the server holds the config).
      const status = await skillgate(["call", "Status", "--workspace", f.ws], f.env);
      expect(status.stderr).toBe("");
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^Progress: 0\/2 stages completed; current stage 0: 'report'\./);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
    expect(server.stderr()).toContain("skillgate: stopped\n");
    expect(existsSync(socket)).toBe(false);
  });
});
