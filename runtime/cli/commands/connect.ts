// `skillgate connect --socket PATH`: a stdio ↔ unix-socket bridge, so any stdio MCP client uses a socket server (the authority).
import type { Command } from "commander";
import { SkillgateError } from "../../errors.js";
import { type CliIO, EXIT_FAILED, reportError } from "../io.js";

interface ConnectFlags {
  socket?: string;
  workspace?: string;
}

export function register(program: Command, io: CliIO): void {
  program
    .command("connect")
    .description(
      "Bridge stdio to a skillgate server's unix socket (serve --authority / --socket): give this command to a stdio MCP client",
    )
    .option("--socket <path>", "the server's unix socket")
    .option("-w, --workspace <dir>", "find the socket in the workspace's server record instead")
    .addHelpText(
      "after",
      [
        "",
        "stdout carries only the MCP protocol; errors go to stderr (exit 1 when the server cannot be reached).",
        "Examples:",
        "  claude mcp add skillgate -- skillgate connect --socket /home/alice/ws/.ucagent/skillgate/server.sock",
        "  codex mcp add skillgate -- skillgate connect --workspace /home/alice/ws",
      ].join("\n"),
    )
    .action(async (flags: ConnectFlags) => {
      try {
        const { openSocket } = await import("../../authority/index.js");
        const { readServerRecord } = await import("../../authority/index.js");
        let socketPath = flags.socket;
        const record = flags.workspace ? await readServerRecord(flags.workspace) : null;
        if (!socketPath) {
          if (!flags.workspace) {
            throw new SkillgateError(
              "USAGE",
              "connect needs --socket <path> (printed by `skillgate serve --authority`) or --workspace <dir>",
            );
          }
          if (!record) {
            throw new SkillgateError(
              "AUTHORITY_UNREACHABLE",
              `workspace ${flags.workspace} has no server record (.ucagent/skillgate/server.json): no socket server serves it; fix: start \`skillgate serve --authority\` (or --socket) for it, or pass --socket`,
            );
          }
          socketPath = record.socket;
        }
        const { relayStdio } = await import("../../authority/index.js");
        const socket = await openSocket(socketPath, record);
        let inputEnded = false;
        process.stdin.once("end", () => {
          inputEnded = true;
        });
        await relayStdio(socket, process.stdin, process.stdout);
        if (!inputEnded) {
          io.err(`skillgate connect: the server on ${socketPath} closed the connection`);
          io.setExitCode(EXIT_FAILED);
        }
        process.exit(process.exitCode ?? 0);
      } catch (error) {
        // stdout belongs to the protocol.
        reportError(io, error, false);
      }
    });
}
