// The serve command line printed for MCP clients, rebuilt from commander's parse (not from raw argv).
import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { register } from "../../runtime/cli/commands/serve.js";
import type { CliIO } from "../../runtime/cli/io.js";
import { reproducibleServeArgs } from "../../runtime/cli/serve-args.js";

const io: CliIO = { out: () => {}, err: () => {}, colour: (_n, t) => t, setExitCode: () => {} };

/** The serve command with its real options, parsed without running its action. */
function serve(argv: string[]): Command {
  const program = new Command("skillgate").exitOverride();
  register(program, io);
  const command = program.commands.find((c) => c.name() === "serve")!;
  command.exitOverride().action(() => {});
  command.configureOutput({ writeErr: () => {} });
  program.parse(["serve", ...argv], { from: "user" });
  return command;
}

describe("reproducibleServeArgs", () => {
  it("puts the served workspace first, makes paths absolute, repeats lists, and drops --http/--json", () => {
    const command = serve([
      "-w",
      "ws",
      "--no-use-skill",
      "--config",
      "c.yaml",
      "--http",
      "127.0.0.1:0",
      "--json",
      "--dut",
      "/abs/dut",
      "--no-file-tools",
      "--allow-origin",
      "http://a",
      "--allow-origin",
      "http://b",
    ]);
    expect(reproducibleServeArgs(command, "/w/ws", "/here")).toEqual([
      "--workspace",
      "/w/ws",
      "--no-file-tools",
      "--allow-origin",
      "http://a",
      "--allow-origin",
      "http://b",
      "--dut",
      "/abs/dut",
      "--config",
      "/here/c.yaml",
      "--no-use-skill",
    ]);
  });

  it("of --no-use-skill then --use-skill, the one that won is repeated; extra paths become absolute", () => {
    const command = serve([
      "--no-use-skill",
      "--use-skill",
      "--extra-skill-path",
      "x",
      "--extra-skill-path",
      "/y",
    ]);
    expect(reproducibleServeArgs(command, "/w/ws", "/here")).toEqual([
      "--workspace",
      "/w/ws",
      "--use-skill",
      "--extra-skill-path",
      "/here/x",
      "--extra-skill-path",
      "/y",
    ]);
  });
});

describe("serve flag conflicts (commander's own)", () => {
  it("--auth-token with --auth-token-file is refused at parse time, naming both", () => {
    let caught: unknown;
    try {
      serve(["--http", "127.0.0.1:0", "--auth-token", "t", "--auth-token-file", "f"]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CommanderError);
    expect((caught as CommanderError).code).toBe("commander.conflictingOption");
    expect((caught as CommanderError).message).toBe(
      "error: option '--auth-token <token>' cannot be used with option '--auth-token-file <file>'",
    );
  });
});
