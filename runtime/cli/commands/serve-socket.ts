// `skillgate serve --socket PATH` / `serve --authority`: serve a workspace on a unix socket until SIGINT/SIGTERM.
import { resolve } from "node:path";
import type { Command } from "commander";
import { SkillgateError } from "../../errors.js";
import { checkBindPolicy, parseListenAddress } from "../../mcp/index.js";
import type { CliIO } from "../io.js";
import { connectHelp, selfCommand } from "../serve-args.js";
import { httpAuthFrom, type ServeFlags } from "../serve-flags.js";
import { initProgressPrinter, sessionOptionsFrom } from "../session-options.js";
import { untilStopSignal } from "../stop-signals.js";

function parseMode(text: string): number {
  if (!/^0?[0-7]{3}$/.test(text)) {
    throw new SkillgateError(
      "USAGE",
      `--socket-mode ${text} is not an octal file mode; fix: give three octal digits, e.g. --socket-mode 660 (owner and group may connect) or 600 (owner only)`,
    );
  }
  return Number.parseInt(text, 8);
}

/** How a client reaches the socket: the one-line configs of common MCP hosts, and the shell. */
export function socketConnectHelp(socket: string, workspace: string): string {
  const connect = `${selfCommand()} connect --socket ${socket}`;
  return [
    "Connect an MCP client (it starts the stdio bridge itself):",
    `  Claude Code:    claude mcp add skillgate -- ${connect}`,
    `  Codex CLI:      codex mcp add skillgate -- ${connect}`,
    `  MCP Inspector:  npx @modelcontextprotocol/inspector ${connect}`,
    `  Shell:          ${selfCommand()} call Status --workspace ${workspace}   (finds the socket itself)`,
  ].join("\n");
}

export async function runSocketServe(
  flags: ServeFlags,
  command: Command,
  io: CliIO,
  log: (message: string) => void,
): Promise<void> {
  if (!flags.workspace) {
    throw new SkillgateError(
      "USAGE",
      `serve ${flags.authority ? "--authority" : "--socket"} needs --workspace <dir>: name the agent's workspace folder`,
    );
  }
  const address = flags.http ? parseListenAddress(flags.http) : null;
  const auth = httpAuthFrom(flags);
  if (address && flags.authority && auth.authToken === undefined) {
    throw new SkillgateError(
      "USAGE",
      "serve --authority --http needs --auth-token-file FILE: every local user can reach a loopback port, so without a token anyone could drive the authority; give the token file to the agent's user only",
    );
  }
  if (address) checkBindPolicy(address.host, auth);
  if (flags.sameUserOk && !flags.authority) {
    throw new SkillgateError(
      "USAGE",
      "--same-user-ok only applies to --authority; add --authority or drop it",
    );
  }
  const { startSocketServer } = await import("../../authority/index.js");
  const server = await startSocketServer({
    workspace: resolve(flags.workspace),
    authority: flags.authority === true,
    sameUserOk: flags.sameUserOk === true,
    socket: flags.socket,
    socketMode: flags.socketMode === undefined ? undefined : parseMode(flags.socketMode),
    socketGroup: flags.socketGroup,
    session: {
      ...sessionOptionsFrom(command, flags, flags.workspace),
      onProgress: initProgressPrinter(log),
      ...(flags.fileTools === false ? { fileTools: false } : {}),
    },
    ...(address ? { http: { address, auth } } : {}),
    log,
  });
  const { session, record } = server;
  const stage = await session.engine.current();
  log(
    `workspace ${session.paths.root}; skills ${session.skillsEnabled ? "enabled" : "disabled"}; ` +
      `current stage: ${stage ? stage.config.name : "(workflow finished)"}`,
  );
  if (flags.json) {
    io.err(
      JSON.stringify({
        event: "listening",
        socket: record.socket,
        mode: record.mode,
        workspace: record.workspace,
        ...(record.http ? { url: record.http } : {}),
      }),
    );
  } else {
    log(
      `${record.mode === "authority" ? `authority (user ${record.user})` : "MCP server"} listening on unix socket ${record.socket}\n` +
        socketConnectHelp(record.socket, record.workspace) +
        (record.http
          ? `\nAlso Streamable HTTP on ${record.http} (send Authorization: Bearer <token>):\n${connectHelp(["--workspace", record.workspace], record.http)}`
          : ""),
    );
  }
  await untilStopSignal(() => server.close());
  log("stopped");
  const { closeSharedPreparedPool } = await import("../../exec/index.js");
  await closeSharedPreparedPool();
  // Watchers of the skill catalog would keep the process alive; serving is over.
  process.exit(process.exitCode ?? 0);
}
