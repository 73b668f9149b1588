// `skillgate serve`: initialise the workspace if needed, then serve the tools over MCP (stdio, or Streamable HTTP).
import { resolve } from "node:path";
import type { Command } from "commander";
import { SkillgateError } from "../../errors.js";
import { defaultWorkspace, prepareDefaultWorkspace } from "../../mcp/default-workspace.js";
import { checkBindPolicy, type HttpAuthOptions, readTokenFile } from "../../mcp/http-guard.js";
import { parseListenAddress } from "../../mcp/listen-address.js";
import { type CliIO, reportError } from "../io.js";
import {
  addSessionOptions,
  initProgressPrinter,
  type SessionFlags,
  sessionOptionsFrom,
} from "../session-options.js";

interface ServeFlags extends SessionFlags {
  http?: string;
  authority?: boolean;
  sameUserOk?: boolean;
  socket?: string;
  socketMode?: string;
  socketGroup?: string;
  authToken?: string;
  authTokenFile?: string;
  allowOrigin?: string[];
  /** false with --no-file-tools. */
  fileTools?: boolean;
}

/** The command that started this process, so the printed instructions work from a clone as well as from npm. */
export function selfCommand(argv: string[] = process.argv): string {
  const script = argv[1];
  if (!script) return "npx skillgate";
  return script.endsWith(".ts") ? `npx tsx ${script}` : `node ${script}`;
}

export function connectHelp(workspace: string, http: string | null): string {
  const serveCmd = `${selfCommand()} serve --workspace ${workspace}`;
  if (http) {
    return [
      `Connect an MCP client to ${http}:`,
      `  Claude Code:    claude mcp add --transport http skillgate ${http}`,
      `  Codex CLI:      codex mcp add skillgate --url ${http}`,
      `  MCP Inspector:  npx @modelcontextprotocol/inspector  (Transport: Streamable HTTP, URL: ${http})`,
    ].join("\n");
  }
  return [
    "Serving MCP over stdio: an MCP client starts this command itself. To connect one:",
    `  Claude Code:    claude mcp add skillgate -- ${serveCmd}`,
    `  Codex CLI:      codex mcp add skillgate -- ${serveCmd}`,
    `  MCP Inspector:  npx @modelcontextprotocol/inspector ${serveCmd}`,
    "Or serve over HTTP: add --http 127.0.0.1:8765 and point the client at http://127.0.0.1:8765/mcp",
  ].join("\n");
}

export type { ServeFlags };

export function httpAuthFrom(flags: ServeFlags): HttpAuthOptions {
  if (flags.authToken !== undefined && flags.authTokenFile !== undefined) {
    throw new SkillgateError("FLAG_CONFLICT", "Give --auth-token or --auth-token-file, not both.");
  }
  if ((flags.authToken ?? flags.authTokenFile ?? flags.allowOrigin) !== undefined && !flags.http) {
    throw new SkillgateError(
      "USAGE",
      "--auth-token, --auth-token-file and --allow-origin apply to --http only.",
    );
  }
  const authToken = flags.authTokenFile !== undefined ? readTokenFile(flags.authTokenFile) : flags.authToken;
  return { authToken, allowedOrigins: flags.allowOrigin };
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command("serve")
    .description("Serve the agent tools over MCP (stdio by default, or Streamable HTTP with --http)")
    .option(
      "--http <host:port>",
      "serve Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; port 0 = any)",
    )
    .option(
      "--authority",
      "serve as the workspace's authority: run as a dedicated OS user that alone holds the key and the state folder; clients use the unix socket (skillgate connect / call)",
    )
    .option(
      "--same-user-ok",
      "allow --authority as the workspace owner (tests only: nothing is enforced then)",
    )
    .option(
      "--socket <path>",
      "serve on this unix socket (default with --authority: <ws>/.ucagent/skillgate/server.sock)",
    )
    .option("--socket-mode <octal>", "file mode of the socket (default 660: owner and group may connect)")
    .option(
      "--socket-group <group>",
      "group of the socket (default with --authority: the workspace folder's group); the serving user must be in it",
    )
    .option(
      "--auth-token-file <file>",
      "HTTP: require `Authorization: Bearer <token>` with the token on the file's first line (needed off loopback)",
    )
    .option(
      "--auth-token <token>",
      "HTTP: like --auth-token-file, token given inline (visible in ps; prefer the file)",
    )
    .option(
      "--no-file-tools",
      "leave out the UCAgent file tools (EditTextFile, PathList, ...) for hosts that bring their own (config: file_tools)",
    )
    .option(
      "--allow-origin <origin>",
      "HTTP: also accept browser requests from this Origin (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addSessionOptions(command, false).addHelpText(
    "after",
    [
      "",
      "Without --workspace, serves ~/.skillgate/workspaces/default ($SKILLGATE_HOME honoured), seeded with the",
      "shipped example target in dut/. Only the MCP protocol is written to stdout; logs go to stderr.",
      "Examples:",
      "  skillgate serve --workspace ./ws",
      "  skillgate serve --workspace ./ws --http 127.0.0.1:8765",
      "  sudo -u skillgate skillgate serve --authority --workspace /home/alice/ws",
      "  skillgate serve --workspace ./ws --http 0.0.0.0:8765 --auth-token-file ~/.skillgate/mcp.token",
    ].join("\n"),
  );
  command.action(async (flags: ServeFlags) => {
    const log = (message: string) => io.err(`skillgate: ${message}`);
    try {
      if (flags.authority || flags.socket !== undefined) {
        const { runSocketServe } = await import("./serve-socket.js");
        await runSocketServe(flags, io, log);
        return;
      }
      for (const [given, name] of [
        [flags.sameUserOk, "--same-user-ok"],
        [flags.socketMode, "--socket-mode"],
        [flags.socketGroup, "--socket-group"],
      ] as const) {
        if (given !== undefined)
          throw new SkillgateError(
            "USAGE",
            `${name} needs --authority or --socket; add one of them or drop ${name}`,
          );
      }
      const address = flags.http ? parseListenAddress(flags.http) : null;
      const auth = httpAuthFrom(flags);
      if (address) checkBindPolicy(address.host, auth);
      let workspace = flags.workspace;
      if (!workspace) {
        workspace = defaultWorkspace();
        const seeded = await prepareDefaultWorkspace(workspace);
        log(
          `no --workspace given; using the default workspace ${workspace}` +
            (seeded.seeded ? ` (copied the example target ${seeded.example} into dut/)` : ""),
        );
      }
      // Loaded on use so `skillgate --help` and other verbs start fast.
      const { openSession } = await import("../../tools/session.js");
      const { serveHttp } = await import("../../mcp/http.js");
      const { serveStdio } = await import("../../mcp/stdio.js");
      const session = await openSession({
        ...sessionOptionsFrom(flags, resolve(workspace)),
        resetCheckOnStart: true,
        onProgress: initProgressPrinter(log),
      });
      if (flags.fileTools === false) session.fileTools = false;
      const stage = await session.engine.current();
      log(
        `workspace ${session.paths.root}; skills ${session.skillsEnabled ? "enabled" : "disabled"}; ` +
          `current stage: ${stage ? stage.config.name : "(workflow finished)"}`,
      );
      if (address) {
        const serving = await serveHttp(session, address, log, auth);
        if (flags.json)
          io.err(JSON.stringify({ event: "listening", url: serving.url, workspace: session.paths.root }));
        else
          log(
            `MCP Streamable HTTP server listening on ${serving.url}\n${connectHelp(session.paths.root, serving.url)}`,
          );
        await new Promise<void>((done) => {
          const stop = () => {
            void serving.close().then(done);
          };
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        log("stopped");
        // Watchers of the skill catalog would keep the process alive; serving is over.
        process.exit(process.exitCode ?? 0);
      }
      log(connectHelp(session.paths.root, null));
      const serving = await serveStdio(session, log);
      await serving.closed;
      process.exit(process.exitCode ?? 0);
    } catch (error) {
      // stdout belongs to the protocol, so even with --json the error goes to stderr.
      reportError(io, error, false);
    }
  });
}
