// Runs `skillgate …` as a real subprocess (tsx on the sources) for the evidence attack tests.
import { MAIN, TSX } from "../mcp/helpers.js";
import { runProcess } from "../support/process.js";
import { REPO_ROOT } from "../tools/helpers.js";

export interface CliOutcome {
  exit: number;
  stdout: string;
  stderr: string;
}

export interface CliResult extends CliOutcome {
  /** The tool result of `call … --json`. */
  json: { isError: boolean; code?: string; text: string; structured?: Record<string, unknown> };
}

export async function skillgate(args: string[], env: NodeJS.ProcessEnv): Promise<CliOutcome> {
  const { code, stdout, stderr } = await runProcess(TSX, [MAIN, ...args], {
    cwd: REPO_ROOT,
    env,
    timeout: 120_000,
  });
  return { exit: code, stdout, stderr };
}

/** `skillgate call TOOL ARGS --workspace WS --config CFG --json`, parsed. */
export async function callCli(
  tool: string,
  args: Record<string, unknown>,
  where: { ws: string; configFile: string; env: NodeJS.ProcessEnv },
): Promise<CliResult> {
  const out = await skillgate(
    ["call", tool, JSON.stringify(args), "--workspace", where.ws, "--config", where.configFile, "--json"],
    where.env,
  );
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(out.stdout);
  } catch {
    throw new Error(
      `skillgate call ${tool} printed no JSON (exit ${out.exit}): ${out.stdout}\n${out.stderr}`,
    );
  }
  // A refusal before the tool ran (opening the session) prints {ok: false, error}; shown like a tool error.
  const error = parsed.error as { code: string; message: string } | undefined;
  const json =
    parsed.ok === false && error
      ? { isError: true, code: error.code, text: error.message }
      : (parsed as unknown as CliResult["json"]);
  return { ...out, json };
}
