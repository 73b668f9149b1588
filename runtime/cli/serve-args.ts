// The `serve` command line an MCP client should run: every flag serve was started with, paths made absolute.
import { isAbsolute, resolve } from "node:path";
import { quote } from "shlex";

/** Options whose value is a path the client's working folder would change the meaning of. */
const PATH_OPTIONS = new Set(["-w", "--workspace", "--config", "--extra-skill-path", "--dut"]);
/** Options that make no sense in the command a stdio client starts (the client talks over stdio). */
const DROPPED_WITH_VALUE = new Set(["--http"]);
const DROPPED = new Set(["--json"]);

/**
 * The serve flags as typed (everything after `serve`), with path values absolute and `--workspace` set to the
 * workspace actually served. Unknown flags are kept as typed, so flags added later are never lost.
 */
export function reproducibleServeArgs(raw: string[], workspace: string, cwd = process.cwd()): string[] {
  const out: string[] = [];
  let workspaceGiven = false;
  for (let i = 0; i < raw.length; i++) {
    const token = raw[i]!;
    const eq = token.startsWith("--") ? token.indexOf("=") : -1;
    const name = eq > 0 ? token.slice(0, eq) : token;
    const inlineValue = eq > 0 ? token.slice(eq + 1) : undefined;
    if (DROPPED.has(name)) continue;
    if (DROPPED_WITH_VALUE.has(name)) {
      if (inlineValue === undefined) i++;
      continue;
    }
    if (!PATH_OPTIONS.has(name)) {
      out.push(token);
      continue;
    }
    const value = inlineValue ?? raw[++i];
    if (value === undefined) continue;
    if (name === "-w" || name === "--workspace") {
      workspaceGiven = true;
      out.push("--workspace", workspace);
    } else out.push(name, isAbsolute(value) ? value : resolve(cwd, value));
  }
  return workspaceGiven ? out : ["--workspace", workspace, ...out];
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
