// `skillgate serve`: initialise the workspace if needed, then serve the tools over MCP (stdio, or Streamable HTTP).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import type { SkillgateConfig } from "../../config/index.js";
import { SkillgateError } from "../../errors.js";
import {
  checkBindPolicy,
  defaultWorkspace,
  parseListenAddress,
  prepareDefaultWorkspace,
} from "../../mcp/index.js";
import { type CliIO, reportError } from "../io.js";
import { connectHelp, reproducibleServeArgs } from "../serve-args.js";
import { httpAuthFrom, type ServeFlags } from "../serve-flags.js";
import { addSessionOptions, initProgressPrinter, sessionOptionsFrom } from "../session-options.js";
import { untilStopSignal } from "../stop-signals.js";
import { dutMissingWarning } from "./init.js";

/** What is missing for script runs, said once at start so the operator is not surprised by the first run. */
export function sandboxStartWarning(
  config: Pick<SkillgateConfig, "exec">,
  env: NodeJS.ProcessEnv,
  find: (name: string) => string | null,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (platform !== "linux" || config.exec.sandbox_level < 2 || config.exec.allow_unsandboxed) return null;
  const configured = env.SKILLGATE_BWRAP;
  if (configured) {
    return existsSync(configured)
      ? null
      : `SKILLGATE_BWRAP=${configured} does not exist: RunSkillScript will refuse to run scripts until it names the bubblewrap binary (or unset it and install bubblewrap: sudo apt-get install bubblewrap). Every other tool works.`;
  }
  return find("bwrap") === null
    ? "bubblewrap (bwrap) is not installed: RunSkillScript will refuse to run scripts until it is. Install it with: sudo apt-get install bubblewrap (Debian/Ubuntu), or set SKILLGATE_BWRAP to its path. Every other tool works."
    : null;
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
    .addOption(
      new Option(
        "--auth-token <token>",
        "HTTP: like --auth-token-file, token given inline (visible in ps; prefer the file)",
      ).conflicts("authTokenFile"),
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
  command.option(
    "--dut <path>",
    "the target under work (DUT), relative to the current folder (re-runs init)",
  );
  addSessionOptions(command, false).addHelpText(
    "after",
    [
      "",
      "Without --workspace, serves ~/.skillgate/workspaces/default ($SKILLGATE_HOME honoured), seeded with the",
      "shipped example target in dut/. Only the MCP protocol is written to stdout; logs go to stderr.",
      "A missing workspace skill folder (or stage skill) is restored from the pack at start.",
      "--json (with --http) prints one JSON line {event: listening, url, workspace} on stdout.",
      "Examples:",
      "  skillgate serve --workspace ./ws",
      "  skillgate serve --workspace ./ws --http 127.0.0.1:8765",
      "  sudo -u skillgate skillgate serve --authority --workspace /home/alice/ws",
      "  skillgate serve --workspace ./ws --http 0.0.0.0:8765 --auth-token-file ~/.skillgate/mcp.token",
    ].join("\n"),
  );
  command.action(async (flags: ServeFlags, self: Command) => {
    const log = (message: string) => io.err(`skillgate: ${message}`);
    try {
      if (flags.authority || flags.socket !== undefined) {
        const { runSocketServe } = await import("./serve-socket.js");
        await runSocketServe(flags, self, io, log);
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
      if (flags.json && !flags.http) {
        throw new SkillgateError(
          "USAGE",
          "--json needs --http: over stdio, stdout carries the MCP protocol only. Use --http HOST:PORT --json, or drop --json.",
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
      const { openSession } = await import("../../tools/index.js");
      const { serveHttp } = await import("../../mcp/index.js");
      const { serveStdio } = await import("../../mcp/index.js");
      const session = await openSession({
        ...sessionOptionsFrom(self, flags, resolve(workspace)),
        ...(flags.fileTools === false ? { fileTools: false } : {}),
        resetCheckOnStart: true,
        restoreSkills: true,
        ...(flags.dut !== undefined ? { dut: flags.dut } : {}),
        onProgress: initProgressPrinter(log),
      });
      if (!existsSync(session.runtime.DUT)) log(`warning: ${dutMissingWarning(session.runtime.DUT)}`);
      const { closeSharedPreparedPool, findExecutable } = await import("../../exec/index.js");
      const sandbox = sandboxStartWarning(session.config, process.env, (name) => findExecutable(name));
      if (sandbox) log(`warning: ${sandbox}`);
      const serveArgs = reproducibleServeArgs(self, session.paths.root);
      const stage = await session.engine.current();
      log(
        `workspace ${session.paths.root}; skills ${session.skillsEnabled ? "enabled" : "disabled"}; ` +
          `current stage: ${stage ? stage.config.name : "(workflow finished)"}`,
      );
      if (address) {
        const serving = await serveHttp(session, address, log, auth);
        if (flags.json)
          io.out(JSON.stringify({ event: "listening", url: serving.url, workspace: session.paths.root }));
        else
          log(
            `MCP Streamable HTTP server listening on ${serving.url}\n${connectHelp(serveArgs, serving.url)}`,
          );
        await untilStopSignal(() => serving.close());
        log("stopped");
        await closeSharedPreparedPool();
        // Watchers of the skill catalog would keep the process alive; serving is over.
        process.exit(process.exitCode ?? 0);
      }
      log(connectHelp(serveArgs, null));
      const serving = await serveStdio(session, log);
      // An MCP client that closes stdin sends SIGTERM 2 s later (the SDK's stdio transport): the signal must not cut
      // short the clean-up below, and a signal alone ends the session the same way.
      await Promise.race([serving.closed, untilStopSignal(() => serving.close())]);
      // A held sandbox (and its cgroup) must not outlive the session; the exit hook alone cannot wait for the kernel.
      await closeSharedPreparedPool();
      process.exit(process.exitCode ?? 0);
    } catch (error) {
      // stdout belongs to the protocol, so even with --json the error goes to stderr.
      reportError(io, error, false);
    }
  });
}
