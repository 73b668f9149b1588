// The `serve` command line an MCP client should run: every flag serve was parsed with, paths made absolute.
import { isAbsolute, resolve } from "node:path";
import type { Command } from "commander";
import { quote } from "shlex";

/** Options whose value is a path the client's working folder would change the meaning of. */
const PATH_OPTIONS = new Set(["--config", "--extra-skill-path", "--dut"]);
/** Options that make no sense in the command a stdio client starts (the client talks over stdio). */
const DROPPED = new Set(["--workspace", "--http", "--json"]);

/**
 * The serve flags as commander parsed them (given on the command line, not defaults), path values made absolute,
 * and `--workspace` first, naming the workspace actually served.
 */
export function reproducibleServeArgs(command: Command, workspace: string, cwd = process.cwd()): string[] {
  const out = ["--workspace", workspace];
  for (const option of command.options) {
    const key = option.attributeName();
    const name = option.long;
    if (!name || DROPPED.has(name) || command.getOptionValueSource(key) !== "cli") continue;
    const value: unknown = command.getOptionValue(key);
    if (!option.required && !option.optional) {
      // --use-skill and --no-use-skill share one value: the flag matching it is the one to repeat.
      if (value === !option.negate) out.push(name);
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = String(item);
      out.push(name, PATH_OPTIONS.has(name) && !isAbsolute(text) ? resolve(cwd, text) : text);
    }
  }
  return out;
}

/** The command that started this process, so the printed instructions work from a clone as well as from npm. */
export function selfCommand(argv: string[] = process.argv): string {
  const script = argv[1];
  if (!script) return "npx skillgate";
  return script.endsWith(".ts") ? `npx tsx ${quote(script)}` : `node ${quote(script)}`;
}

export function connectHelp(serveArgs: string[], http: string | null, self = selfCommand()): string {
  const serveCmd = `${self} serve ${serveArgs.map((arg) => quote(arg)).join(" ")}`;
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
