#!/usr/bin/env node
// The `skillgate` command: registers the verbs from cli/commands/ (only the one being run) and runs it.
import { Command, CommanderError } from "commander";
import { packageVersion } from "../contracts/index.js";
import { commandsFor } from "./commands/index.js";
import { EXIT_USAGE, processIO } from "./io.js";

export async function main(argv: string[]): Promise<void> {
  const io = processIO();
  const program = new Command("skillgate")
    .description(
      "Serve a skill pack and a staged workflow to LLM agents (UCAgent-compatible tools over MCP).",
    )
    .version(packageVersion(), "-V, --version", "print the skillgate version")
    .showHelpAfterError()
    .exitOverride();
  for (const register of await commandsFor(argv)) register(program, io);
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode !== 0) io.setExitCode(EXIT_USAGE);
      return;
    }
    throw error;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `skillgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
